// Noise on the machine, recorded rather than hidden: CPU idle share and Linux PSI CPU stall.
#pragma once

#include <cstdint>
#include <optional>

namespace comops {

/// Share of all CPU time that was idle over `window_ms` (from /proc/stat); none if unreadable.
std::optional<double> cpu_idle_share(int window_ms);

/// Cumulative CPU pressure stall, "some" line of /proc/pressure/cpu, in microseconds; none when
/// the kernel has no PSI.
std::optional<std::uint64_t> cpu_stall_total_us();

/// A point counts as contended when tasks waited for a CPU for more than this share of its time.
inline constexpr double kContendedStallShare = 0.05;

}  // namespace comops
