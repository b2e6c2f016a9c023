// /proc/stat idle share, /proc/pressure/cpu stall, /proc/thread-self/schedstat run delay, and the
// stall over a window.
#include "harness/machine/noise.hpp"

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <utility>

#include "harness/util/read_text_file.hpp"

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

double steady_us() {
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::optional<double> cpu_idle_share(int window_ms) {
  const auto a = read_cpu_times();
  std::this_thread::sleep_for(std::chrono::milliseconds(window_ms));
  const auto b = read_cpu_times();
  if (!a || !b || b->total <= a->total) return std::nullopt;
  return static_cast<double>(b->idle - a->idle) / static_cast<double>(b->total - a->total);
}

std::optional<std::uint64_t> parse_psi_some_total_us(const std::string& pressure) {
  std::istringstream in(pressure);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("some ", 0) != 0) continue;
    const auto pos = line.find("total=");
    if (pos == std::string::npos) return std::nullopt;
    std::istringstream value(line.substr(pos + 6));
    std::uint64_t us = 0;
    if (!(value >> us)) return std::nullopt;
    return us;
  }
  return std::nullopt;
}

std::optional<std::uint64_t> parse_schedstat_run_delay_ns(const std::string& schedstat) {
  std::istringstream in(schedstat);  // "<on-cpu ns> <run delay ns> <timeslices>"
  std::uint64_t on_cpu = 0, delay = 0, slices = 0;
  if (!(in >> on_cpu >> delay >> slices)) return std::nullopt;
  return delay;
}

std::optional<std::uint64_t> cpu_stall_total_us() {
  return parse_psi_some_total_us(read_text_file("/proc/pressure/cpu"));
}

std::optional<double> read_stall_us(StallSource source) {
  switch (source) {
    case StallSource::kSchedstat:
      if (const auto ns =
              parse_schedstat_run_delay_ns(read_text_file("/proc/thread-self/schedstat")))
        return static_cast<double>(*ns) / 1e3;
      return std::nullopt;
    case StallSource::kPsi:
      if (const auto us = cpu_stall_total_us()) return static_cast<double>(*us);
      return std::nullopt;
    case StallSource::kNone:
      break;
  }
  return std::nullopt;
}

StallSource stall_source() {
  static const StallSource source = [] {
    if (read_stall_us(StallSource::kSchedstat)) return StallSource::kSchedstat;
    if (read_stall_us(StallSource::kPsi)) return StallSource::kPsi;
    return StallSource::kNone;
  }();
  return source;
}

const char* stall_source_name(StallSource source) {
  switch (source) {
    case StallSource::kSchedstat:
      return "schedstat";
    case StallSource::kPsi:
      return "psi";
    case StallSource::kNone:
      break;
  }
  return "none";
}

bool is_contended(std::optional<double> stall_us, double window_us) {
  return stall_us && window_us > 0 && *stall_us > kContendedStallShare * window_us;
}

StallWindow::StallWindow(Counter counter, Clock clock)
    : counter_(std::move(counter)), clock_(std::move(clock)) {}

// The counter is read inside the clock's interval, so a stall never exceeds its window.
void StallWindow::start() {
  start_us_ = clock_();
  start_stall_ = counter_();
}

void StallWindow::stop() {
  const auto end = counter_();
  window_us_ = clock_() - start_us_;
  stall_.reset();
  if (start_stall_ && end && *end >= *start_stall_) stall_ = *end - *start_stall_;
}

std::optional<double> StallWindow::stall_us() const { return stall_; }

StallWindow thread_stall_window() {
  const StallSource source = stall_source();
  return StallWindow([source] { return read_stall_us(source); }, steady_us);
}

ParticipantStall most_stalled(const std::vector<ParticipantStall>& participants) {
  ParticipantStall worst;
  double worst_share = -1;
  for (const ParticipantStall& p : participants) {
    if (!p.stall_us) return {std::nullopt, p.window_us};
    const double share = p.window_us > 0 ? *p.stall_us / p.window_us : 0;
    if (share > worst_share) {
      worst = p;
      worst_share = share;
    }
  }
  return worst;
}

}  // namespace comops
