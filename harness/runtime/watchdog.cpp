// The progress watchdog: one watch thread per process, woken once a second, and the steps of
// progress the measurement reports to it.
#include "harness/runtime/watchdog.hpp"

#include <fmt/format.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>

namespace comops {
namespace {

using Clock = std::chrono::steady_clock;

// What the watch thread reads: the last step of progress and where the rank waits now.
struct Watch {
  std::mutex m;
  std::condition_variable wake;
  bool stopping = false;
  std::thread thread;
  WatchdogLimits limits;
  WatchdogIdentity who;
  Clock::time_point last = Clock::now();
  std::string label;               // the point, empty between points
  const char* phase = "start-up";  // what the rank waits in
  int index = 0, count = 0;        // the phase's step, when counted
  double step_s = 0;               // the next step's expected time
  double parked_s = 0;             // a parked rank's extra allowance

  ~Watch() { stop(); }

  void stop() {
    std::thread t;
    {
      std::lock_guard lock(m);
      if (!thread.joinable()) return;
      stopping = true;
      t = std::move(thread);
    }
    wake.notify_all();
    t.join();
  }
};

Watch& watch() {
  static Watch w;
  return w;
}

std::string where_text(const Watch& w) {
  const std::string step =
      w.count > 0 ? fmt::format("{} {} of {}", w.phase, w.index, w.count) : w.phase;
  if (w.label.empty()) return step;
  return fmt::format("point {}, {}", w.label, w.parked_s > 0 ? "parked (not a participant)" : step);
}

[[noreturn]] void fire(const std::string& line) {
  const std::string text = line + "\n";
  if (::write(STDERR_FILENO, text.data(), text.size()) < 0) {
    // stderr is gone: the exit code still says it
  }
  ::_exit(3);  // comops' run-time failure; MPI may be stuck, and this thread may not call it
}

// One check: fires when the rank is past its allowance, judged at the load of this moment.
void check(Watch& w) {
  const double waited = std::chrono::duration<double>(Clock::now() - w.last).count();
  if (waited <= watchdog_allowance_s(w.limits, w.step_s, 1.0) + w.parked_s) return;
  const double allowance = watchdog_allowance_s(w.limits, w.step_s, load_factor()) + w.parked_s;
  if (waited <= allowance) return;
  fire(watchdog_line(w.who, where_text(w), waited, allowance));
}

void run(Watch& w) {
  std::unique_lock lock(w.m);
  while (!w.stopping) {
    w.wake.wait_for(lock, std::chrono::seconds(1));
    if (!w.stopping) check(w);
  }
}

// Restarts the clock (under the lock).
void touch(Watch& w) { w.last = Clock::now(); }

}  // namespace

double watchdog_allowance_s(const WatchdogLimits& limits, double step_s, double load) {
  return limits.base_s * std::max(load, 1.0) + WatchdogLimits::kStepFactor * std::max(step_s, 0.0);
}

double load_factor() {
  double avg[1] = {0};
  const int cpus = ::get_nprocs();  // the machine's: the load average is the machine's too
  if (::getloadavg(avg, 1) != 1 || cpus < 1) return 1.0;
  return std::max(1.0, avg[0] / cpus);
}

void watchdog_start(const WatchdogLimits& limits, const WatchdogIdentity& who) {
  Watch& w = watch();
  w.stop();
  if (limits.base_s <= 0) return;
  std::lock_guard lock(w.m);
  w.limits = limits;
  w.who = who;
  w.stopping = false;
  touch(w);
  w.thread = std::thread([&w] { run(w); });
}

void watchdog_stop() { watch().stop(); }

void watchdog_point(const std::string& label, double parked_s) {
  Watch& w = watch();
  std::lock_guard lock(w.m);
  w.label = label;
  w.phase = "set-up";
  w.index = w.count = 0;
  w.step_s = 0;
  w.parked_s = std::max(parked_s, 0.0);
  touch(w);
}

void watchdog_progress(const char* phase, int index, int count, double next_step_s) {
  Watch& w = watch();
  std::lock_guard lock(w.m);
  w.phase = phase;
  w.index = index;
  w.count = count;
  w.step_s = std::max(next_step_s, 0.0);
  touch(w);
}

void watchdog_between(const char* phase) {
  Watch& w = watch();
  std::lock_guard lock(w.m);
  w.label.clear();
  w.phase = phase;
  w.index = w.count = 0;
  w.step_s = w.parked_s = 0;
  touch(w);
}

std::string watchdog_line(const WatchdogIdentity& who, const std::string& where, double waited_s,
                          double allowance_s) {
  return fmt::format(
      "comops: error: rank {} on host {} {} {:.0f} s in {} (it may wait {:.0f} s, --watchdog); a "
      "peer or the network is gone: this rank ends the job",
      who.rank, who.host, kWatchdogMark, waited_s, where, allowance_s);
}

}  // namespace comops
