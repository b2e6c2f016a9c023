// One cache line bounced between two pinned threads: the machine limit's round trip
// (limits.cpp) and the placement probe beside every point (placement_probe.cpp) share it.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "harness/runtime/pinning.hpp"

namespace comops {

/// A pause for spin loops (x86 pause, Arm yield, else nothing).
inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

/// One atomic word alone in its cache line.
struct alignas(64) Line {
  std::atomic<std::uint64_t> value{0};
};

/// Round trips of one cache line between logical cores `core_a` (the calling thread) and
/// `core_b` (a partner thread), -1 meaning "unbound".
struct RoundTrips {
  std::vector<double> us;  ///< per repetition: microseconds per round trip
  int cpu_a = -1, cpu_b = -1;  ///< the cores the two threads were bound to (-1: unbound)
};

/// `repetitions` timed repetitions of `rounds` round trips each, after one untimed repetition
/// that warms up. The calling thread is unbound afterwards (Pinning::unbind_self).
RoundTrips cacheline_round_trips(const Pinning& pinning, int core_a, int core_b, int rounds,
                                 int repetitions);

}  // namespace comops
