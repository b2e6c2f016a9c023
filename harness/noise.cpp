// /proc/stat idle share and /proc/pressure/cpu stall counters.
#include "harness/noise.hpp"

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

namespace comops {
namespace {

struct CpuTimes {
  std::uint64_t idle = 0, total = 0;
};

std::optional<CpuTimes> read_cpu_times() {
  std::ifstream in("/proc/stat");
  std::string label;
  if (!(in >> label) || label != "cpu") return std::nullopt;
  CpuTimes t;
  std::uint64_t v = 0;
  for (int field = 0; field < 8 && (in >> v); ++field) {  // user nice system idle iowait irq ...
    t.total += v;
    if (field == 3 || field == 4) t.idle += v;
  }
  return t;
}

}  // namespace

std::optional<double> cpu_idle_share(int window_ms) {
  const auto a = read_cpu_times();
  std::this_thread::sleep_for(std::chrono::milliseconds(window_ms));
  const auto b = read_cpu_times();
  if (!a || !b || b->total <= a->total) return std::nullopt;
  return static_cast<double>(b->idle - a->idle) / static_cast<double>(b->total - a->total);
}

std::optional<std::uint64_t> cpu_stall_total_us() {
  std::ifstream in("/proc/pressure/cpu");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("some ", 0) != 0) continue;
    const auto pos = line.find("total=");
    if (pos == std::string::npos) return std::nullopt;
    return std::stoull(line.substr(pos + 6));
  }
  return std::nullopt;
}

}  // namespace comops
