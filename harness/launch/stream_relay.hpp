// The supervisor's view of the launcher while the job runs: its stdout and stderr passed through
// as they come (with a copy kept to read the launcher's verdict from), the ranks' start-up lines
// taken out and counted (rank_starts.hpp), Open MPI's redundant notices dropped
// (launcher_notices.hpp), and the two ways a job that will not end by itself is ended: after a
// rank's watchdog line, and when the job does not start within its start-up bound.
#pragma once

#include <poll.h>
#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "harness/launch/launcher_notices.hpp"
#include "harness/launch/rank_starts.hpp"

namespace comops {

/// The start-up bound: a job has started once `started_file` (the rank table rank 0 writes when
/// MPI is up) exists; until then it may take `bound_s`, times the machine's load factor.
struct StartupBound {
  std::string started_file;
  double bound_s = 0;
};

class StreamRelay {
 public:
  /// How long the launcher may take to end the job after a rank's watchdog line, and how long
  /// after SIGTERM it gets SIGKILL.
  static constexpr std::chrono::seconds kGrace{10};

  StreamRelay(int out, int err, StartupBound startup);

  /// Passes both streams on until `child` exits; returns its wait status. After a watchdog line
  /// the launcher gets kGrace to end the job, then SIGTERM, then SIGKILL kGrace later (it may
  /// wait for ever for a host it cannot reach); past the start-up bound, SIGTERM at once.
  int until_exit(pid_t child);
  /// Takes what processes left behind still hold in the pipes, then closes them.
  void finish();

  const std::string& seen() const { return seen_; }
  int out_error() const { return out_error_; }  ///< the first failed write to our stdout, or 0
  /// The seconds waited when the start-up bound ended the job, else none.
  std::optional<double> startup_timed_out() const { return startup_waited_s_; }
  /// The host of every rank that said it started.
  const std::vector<std::string>& started_hosts() const { return starts_.hosts(); }

 private:
  using Clock = std::chrono::steady_clock;
  bool pass(int i);
  void check_startup(Clock::time_point now);
  void end_if_due(pid_t child, Clock::time_point now);
  void write_err(const std::string& text);

  pollfd fds_[2];
  const int out_, err_;
  StartupBound startup_;
  Clock::time_point start_ = Clock::now();
  bool started_ = false;
  std::optional<double> startup_waited_s_;
  RankStartFilter starts_;
  LauncherNoticeFilter notices_;
  std::string seen_;
  int out_error_ = 0;
  std::optional<Clock::time_point> term_at_;  // when the launcher gets SIGTERM
  int signalled_ = 0;                         // what the launcher got so far
};

}  // namespace comops
