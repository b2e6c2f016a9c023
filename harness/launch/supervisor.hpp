// comops run directly: the process that starts the MPI job under mpiexec, stays beside it, and
// turns how the job ended into comops' exit code and one clear line (a lost rank, a signal, a
// launcher that failed or ran nothing).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "harness/runtime/nodes.hpp"

namespace comops {

/// Runs `launcher -n np <this program> <argv[1..]>` as a child, forwards SIGINT and SIGTERM to it,
/// passes its output through while watching for the launcher's report of a process that ended
/// badly, and returns comops' exit code: the job's own 0..3; 3 with one `comops: error:` line when
/// a rank was lost (naming its rank and host), when the launcher failed, or when it ran no comops
/// rank; 130 / 143 after SIGINT / SIGTERM. Throws RuntimeError when the child cannot be started
/// or comops was already started by this path (a launcher without PMI variables).
/// `startup_s` is the start-up bound (startup_bound_s): a job whose ranks have not brought MPI up
/// within it (times the machine's load factor) is ended, with one line naming the ranks that
/// started by host and the hosts the launcher named that started none (startup_line), exit 3.
int run_under_launcher(const std::vector<std::string>& launcher, int np, int argc, char** argv,
                       double startup_s = 0);

/// The start-up bound's default: kStartupBaseS plus kStartupPerHostS for each host the launcher
/// names (at least one).
inline constexpr double kStartupBaseS = 30, kStartupPerHostS = 2;

/// The start-up bound: `requested_s` (--startup-timeout) when above 0, else the default for
/// `hosts` hosts named by the launcher.
double startup_bound_s(double requested_s, std::size_t hosts);

/// The line of a job the start-up bound ended after `waited_s`: how many of `np` ranks started,
/// by host (`started`: each started rank's host), and which of the hosts the launcher `named`
/// started none, or that MPI did not come up although every rank started. Pure.
std::string startup_line(double waited_s, int np, const std::vector<std::string>& started,
                         const std::vector<std::string>& named);

/// On world rank 0 of a job run_under_launcher started: records every rank's host and process
/// id where the supervising process reads them. Does nothing in other jobs. Never throws.
void record_ranks(const NodeMap& nodes);

/// On world rank 0 of such a job: records how many rows the outputs hold so far (after each
/// point), so that the supervisor's line can say what an early end kept. Never throws.
void record_rows(std::size_t rows);

/// What the supervisor says of a job that ended with `status` (a waitpid status), given the
/// launcher's output, the rank table record_ranks wrote ("" if none), the signal forwarded (0 if
/// none) and the rows record_rows recorded (-1: not known). Sets `code` to the exit code; returns
/// the line to print ("" for none). Pure but for resolving host names (a launcher may name a
/// host by its address).
std::string judge_job(int status, const std::string& launcher_stderr, const std::string& rank_table,
                      int forwarded_signal, int* code, long rows = -1);

}  // namespace comops
