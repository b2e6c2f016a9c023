// Cache-line ping-pong between the calling thread and a partner thread, each bound to its core.
#include "harness/machine/cacheline.hpp"

#include <chrono>
#include <thread>

namespace comops {

RoundTrips cacheline_round_trips(const Pinning& pinning, int core_a, int core_b, int rounds,
                                 int repetitions) {
  using Clock = std::chrono::steady_clock;
  Line line;
  RoundTrips out;
  const std::uint64_t total = std::uint64_t(rounds) * std::uint64_t(repetitions + 1);
  std::thread partner([&] {
    if (core_b >= 0) out.cpu_b = pinning.bind_self_to_core(core_b);
    for (std::uint64_t i = 0; i < total; ++i) {
      while (line.value.load(std::memory_order_acquire) != 2 * i + 1) cpu_relax();
      line.value.store(2 * i + 2, std::memory_order_release);
    }
  });
  if (core_a >= 0) out.cpu_a = pinning.bind_self_to_core(core_a);
  std::uint64_t i = 0;
  for (int rep = 0; rep <= repetitions; ++rep) {  // repetition 0 warms up
    const auto t0 = Clock::now();
    for (int k = 0; k < rounds; ++k, ++i) {
      line.value.store(2 * i + 1, std::memory_order_release);
      while (line.value.load(std::memory_order_acquire) != 2 * i + 2) cpu_relax();
    }
    const auto t1 = Clock::now();
    if (rep > 0) out.us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / rounds);
  }
  partner.join();
  pinning.unbind_self();
  return out;
}

}  // namespace comops
