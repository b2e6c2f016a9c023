// How a directly run comops knows which ranks started, before MPI is up: each rank of a job the
// supervisor launched says so in one line on its stderr, which the launcher forwards from every
// host; the supervisor takes those lines out of the stream and counts them by host. With them the
// start-up bound (run_under_launcher) can name the hosts whose ranks never started.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace comops {

/// The start of a rank's start-up line: "comops-rank-started HOST PID".
inline constexpr std::string_view kRankStartMark = "comops-rank-started ";

/// On a rank of a job run_under_launcher started (COMOPS_LAUNCHED set), before MPI_Init: prints
/// this rank's start-up line on stderr. Does nothing in other processes.
void announce_rank_start();

/// The supervisor's filter of the launcher's stderr: takes out the start-up lines, byte for byte
/// passing everything else on at once, and keeps the host of each.
class RankStartFilter {
 public:
  /// The part of `chunk` (appended to what came before) that can be passed on now; a line is
  /// held only while it may still turn out to be a start-up line.
  std::string feed(std::string_view chunk);
  /// Whatever is still held, at the end of the stream.
  std::string flush();
  /// The host of every start-up line seen, in order of arrival.
  const std::vector<std::string>& hosts() const { return hosts_; }

 private:
  std::string held_;
  bool line_start_ = true;
  std::vector<std::string> hosts_;
};

}  // namespace comops
