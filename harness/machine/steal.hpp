// Steal time: CPU time the hypervisor gave to other guests while a CPU of this virtual machine
// wanted to run, per CPU from /proc/stat, and a participant's steal over its timed repetitions.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/machine/noise.hpp"

namespace comops {

/// Steal in clock ticks (1/USER_HZ s), by CPU number.
using StealTicks = std::map<int, std::uint64_t>;

/// Each CPU's steal from a /proc/stat text: the 8th number of its "cpuN" line. A line with fewer
/// numbers (kernels before 2.6.11 have no steal column) has steal 0; the machine-wide "cpu" line
/// and every other line are skipped.
StealTicks parse_proc_stat_steal(const std::string& proc_stat);

/// The steal of `cpus` from a /proc/stat text, per CPU (their sum over their count), in us; none
/// when `cpus` is empty or one of them has no line in the text.
std::optional<double> steal_us_per_cpu(const std::string& proc_stat, const std::vector<int>& cpus);

/// One clock tick of /proc/stat in us: 1e6 / sysconf(_SC_CLK_TCK) (10000 at USER_HZ 100).
double clock_tick_us();

/// The /proc/stat this process reads steal from: $COMOPS_PROC_STAT when set and not empty (tests
/// give a file of their own), else "/proc/stat".
std::string proc_stat_path();

/// proc_stat_path() when it has a line for each of the calling thread's CPUs (what the JSON
/// context's cpu_steal_source names); none otherwise.
std::optional<std::string> steal_source();

/// The CPUs the calling thread may run on (sched_getaffinity): its core's when it is bound, the
/// whole allowed set otherwise; empty when unreadable.
std::vector<int> thread_cpus();

/// A StallWindow whose counter is the steal of the calling thread's CPUs (thread_cpus() when it
/// is made) per CPU in us, read from `path` at start and stop, and the steady clock.
StallWindow thread_steal_window(const std::string& path = proc_stat_path());

/// A point counts as contended when its participants' CPUs lost more than kContendedStallShare
/// of the timed repetitions to steal. Each reading of /proc/stat is truncated to a tick, so the
/// true steal over a window is above the difference less one tick: that is what is compared.
/// False without a steal or with an empty window.
bool is_steal_contended(std::optional<double> steal_us, double window_us);

}  // namespace comops
