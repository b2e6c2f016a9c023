// Per-CPU steal from /proc/stat (a path override for tests), the calling thread's CPUs, the steal
// over a window and the contention judgement on it.
#include "harness/machine/steal.hpp"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>

#include "harness/util/read_text_file.hpp"

namespace comops {
namespace {

constexpr int kStealField = 7;  // user nice system idle iowait irq softirq steal guest guest_nice

// The CPU number of a "cpuN" label, none for "cpu" and anything else.
std::optional<int> cpu_number(const std::string& label) {
  if (label.size() <= 3 || label.rfind("cpu", 0) != 0) return std::nullopt;
  int n = 0;
  for (std::size_t i = 3; i < label.size(); ++i) {
    if (label[i] < '0' || label[i] > '9') return std::nullopt;
    n = n * 10 + (label[i] - '0');
  }
  return n;
}

}  // namespace

StealTicks parse_proc_stat_steal(const std::string& proc_stat) {
  StealTicks steal;
  std::istringstream in(proc_stat);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string label;
    fields >> label;
    const auto cpu = cpu_number(label);
    if (!cpu) continue;
    std::uint64_t value = 0, stolen = 0;
    for (int field = 0; field <= kStealField && (fields >> value); ++field)
      if (field == kStealField) stolen = value;
    steal[*cpu] = stolen;
  }
  return steal;
}

std::optional<double> steal_us_per_cpu(const std::string& proc_stat, const std::vector<int>& cpus) {
  if (cpus.empty()) return std::nullopt;
  const StealTicks steal = parse_proc_stat_steal(proc_stat);
  std::uint64_t ticks = 0;
  for (int cpu : cpus) {
    const auto it = steal.find(cpu);
    if (it == steal.end()) return std::nullopt;
    ticks += it->second;
  }
  return static_cast<double>(ticks) * clock_tick_us() / static_cast<double>(cpus.size());
}

double clock_tick_us() {
  static const double tick_us = [] {
    const long hz = ::sysconf(_SC_CLK_TCK);
    return 1e6 / static_cast<double>(hz > 0 ? hz : 100);
  }();
  return tick_us;
}

std::string proc_stat_path() {
  const char* path = std::getenv("COMOPS_PROC_STAT");
  return path != nullptr && *path != '\0' ? path : "/proc/stat";
}

std::optional<std::string> steal_source() {
  const std::string path = proc_stat_path();
  if (!steal_us_per_cpu(read_text_file(path), thread_cpus())) return std::nullopt;
  return path;
}

std::vector<int> thread_cpus() {
  const long configured = ::sysconf(_SC_NPROCESSORS_CONF);
  const int max_cpus = static_cast<int>(std::max<long>(configured, CPU_SETSIZE));
  cpu_set_t* set = CPU_ALLOC(max_cpus);
  const std::size_t bytes = CPU_ALLOC_SIZE(max_cpus);
  std::vector<int> cpus;
  if (set != nullptr && ::sched_getaffinity(0, bytes, set) == 0)
    for (int cpu = 0; cpu < max_cpus; ++cpu)
      if (CPU_ISSET_S(cpu, bytes, set)) cpus.push_back(cpu);
  CPU_FREE(set);
  return cpus;
}

StallWindow thread_steal_window(const std::string& path) {
  return StallWindow(
      [path, cpus = thread_cpus()] { return steal_us_per_cpu(read_text_file(path), cpus); },
      steady_us);
}

bool is_steal_contended(std::optional<double> steal_us, double window_us) {
  return steal_us && is_contended(*steal_us - clock_tick_us(), window_us);
}

}  // namespace comops
