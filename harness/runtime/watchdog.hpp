// The progress watchdog of one rank: it ends the job when this rank makes no progress for too
// long (a peer lost, a link down, a launcher that lets the other ranks run on), independent of
// the launcher. docs/running.md ("When a rank stops making progress") documents the bound.
//
// The measurement tells it each step of progress (a warm-up run, a timed repetition, the
// validation, a point's end) and how long the next step should take; a watch thread checks
// once a second. A rank past its deadline prints one line naming itself, its host, the point and
// the step it waited in and for how long, and leaves with exit code 3 (_exit: the thread cannot
// call MPI, and MPI may be stuck). Its launcher then ends the job, or each other rank's own
// watchdog does.
#pragma once

#include <string>

namespace comops {

/// How long a rank may go without progress: base_s (scaled by the machine's load) plus
/// kStepFactor times the time the next step was measured to take.
struct WatchdogLimits {
  double base_s = 60;  ///< --watchdog; 0 turns the watchdog off
  /// The next step's expected time counts this many times over the base.
  static constexpr double kStepFactor = 10;
};

/// Where the watched rank is, for the line it prints when it fires.
struct WatchdogIdentity {
  int rank = 0;
  std::string host;
};

/// The allowance for a step expected to take step_s, on a machine whose load factor is `load`
/// (1 on an idle machine, see load_factor()): base_s * load + kStepFactor * step_s.
double watchdog_allowance_s(const WatchdogLimits& limits, double step_s, double load);

/// The load factor of this machine: the 1-minute load average over its online CPUs, at least 1
/// (getloadavg(3), get_nprocs(3)); 1 when it cannot be read.
double load_factor();

/// Starts this process's watch thread (none when limits.base_s <= 0). Idempotent per process:
/// a second start replaces the settings. The thread is stopped by watchdog_stop() or at exit.
void watchdog_start(const WatchdogLimits& limits, const WatchdogIdentity& who);
/// Stops the watch thread (nothing when none runs).
void watchdog_stop();

/// Entering point `label` (e.g. "mpi pingpong np=2 1 MiB"), the clock restarts. A rank parked
/// for it (not a participant) sees no step of the point: it may wait `parked_s` more.
void watchdog_point(const std::string& label, double parked_s);
/// A step of progress: the clock restarts, `phase` and its `index` of `count` name where the
/// rank waits next (phase a literal: "warm-up", "timed repetition", ...), and the next step is
/// expected to take next_step_s (from the steps measured so far).
void watchdog_progress(const char* phase, int index, int count, double next_step_s);
/// Between points or outside them: no point, no step estimate, the base allowance alone.
void watchdog_between(const char* phase);

/// The line a rank prints when it fires (without the newline): pure, for tests.
std::string watchdog_line(const WatchdogIdentity& who, const std::string& where, double waited_s,
                          double allowance_s);

/// The words every watchdog line holds, by which the supervisor knows a rank already said why
/// the job ends.
inline constexpr const char* kWatchdogMark = "made no progress for";

}  // namespace comops
