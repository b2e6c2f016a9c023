// comops run directly: the process that starts the MPI job under mpiexec, stays beside it, and
// turns how the job ended into comops' exit code and one clear line (a lost rank, a signal, a
// launcher that failed or ran nothing).
#pragma once

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
int run_under_launcher(const std::vector<std::string>& launcher, int np, int argc, char** argv);

/// On world rank 0 of a job run_under_launcher started: records every rank's host and process
/// id where the supervising process reads them. Does nothing in other jobs. Never throws.
void record_ranks(const NodeMap& nodes);

/// What the supervisor says of a job that ended with `status` (a waitpid status), given the
/// launcher's output, the rank table record_ranks wrote ("" if none) and the signal forwarded
/// (0 if none). Sets `code` to the exit code; returns the line to print ("" for none). Pure.
std::string judge_job(int status, const std::string& launcher_stderr, const std::string& rank_table,
                      int forwarded_signal, int* code);

}  // namespace comops
