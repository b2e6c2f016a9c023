// Noise on the machine, recorded rather than hidden: CPU idle share, Linux PSI CPU stall, and the
// stall of a point's timed repetitions (how long its participants waited for a CPU).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace comops {

/// Share of all CPU time that was idle over `window_ms` (from /proc/stat); none if unreadable.
std::optional<double> cpu_idle_share(int window_ms);

/// Cumulative CPU pressure stall, "some" line of /proc/pressure/cpu, in microseconds; none when
/// the kernel has no PSI.
std::optional<std::uint64_t> cpu_stall_total_us();

/// The "total=" of the "some" line of a /proc/pressure/cpu text, in microseconds; none when absent.
std::optional<std::uint64_t> parse_psi_some_total_us(const std::string& pressure);
/// The run delay of a /proc/<pid>/schedstat text (its second field: nanoseconds the task waited
/// on a run queue for a CPU); none when the text does not hold three numbers.
std::optional<std::uint64_t> parse_schedstat_run_delay_ns(const std::string& schedstat);

/// Where the stall of a point's timed repetitions is read.
///
/// kSchedstat, the default: each participant's own thread's run delay (/proc/thread-self/schedstat,
/// the kernel's sched_info: time spent runnable but waiting for a CPU, preemption included). It
/// counts exactly the time something else held the participant's CPU while it wanted to run, and
/// nothing else: comops' own parked ranks waking to poll, the launcher's processes or another
/// core's waiting tasks do not add to it unless they take that participant's CPU. PSI's "some"
/// stall (kPsi) counts any task of the machine that waits for a CPU, comops' own parked ranks and
/// helper processes included, so on a machine whose cores the participants fill it reports
/// comops itself; it is the fallback on kernels without sched_info (CONFIG_SCHED_INFO).
enum class StallSource { kNone, kSchedstat, kPsi };

/// The source this process uses: schedstat when readable, else PSI, else none (decided once).
StallSource stall_source();
/// "schedstat", "psi" or "none".
const char* stall_source_name(StallSource source);
/// The calling thread's cumulative stall from `source`, in microseconds; none when unreadable.
std::optional<double> read_stall_us(StallSource source);

/// A point counts as contended when a participant waited for a CPU for more than this share of
/// its timed repetitions.
inline constexpr double kContendedStallShare = 0.05;

/// True when `stall_us` is above kContendedStallShare of `window_us`; false without a stall or
/// with an empty window.
bool is_contended(std::optional<double> stall_us, double window_us);

/// The stall over one window: a cumulative counter and a clock read at start() and stop().
class StallWindow {
 public:
  using Counter = std::function<std::optional<double>()>;  ///< cumulative stall, microseconds
  using Clock = std::function<double()>;                   ///< monotonic time, microseconds

  StallWindow(Counter counter, Clock clock);
  void start();
  void stop();
  /// Counter at stop minus counter at start (us); none when either read failed or it went back.
  std::optional<double> stall_us() const;
  /// Clock at stop minus clock at start (us).
  double window_us() const { return window_us_; }

 private:
  Counter counter_;
  Clock clock_;
  std::optional<double> start_stall_, stall_;
  double start_us_ = 0, window_us_ = 0;
};

/// The steady clock, in microseconds (the clock of every StallWindow the harness makes).
double steady_us();

/// A StallWindow of the calling thread: stall_source()'s counter and the steady clock.
StallWindow thread_stall_window();

/// One participant's StallWindow: its stall (none: unreadable) and its window (us).
struct ParticipantStall {
  std::optional<double> stall_us;
  double window_us = 0;
};

/// A point's stall from its timed participants' windows: the participant whose stall is the
/// largest share of its own window, with that window (so the stall never exceeds the window it
/// is shown with); no stall when any participant's was unreadable. Empty: no stall, window 0.
ParticipantStall most_stalled(const std::vector<ParticipantStall>& participants);

}  // namespace comops
