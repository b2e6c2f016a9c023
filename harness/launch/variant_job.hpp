// The job of one --mpi-variant: comops started again under the launcher, its ranks given the
// variant's environment (UCX reads its variables at MPI_Init, so a variant cannot be a setenv in
// a running job), measuring the mpi backend's points and handing them back; and the side of it
// that runs inside that job.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/launch/mpi_variant.hpp"
#include "harness/measure/measure.hpp"

namespace comops {

/// What a variant's job measured and which UCX transports it used.
struct VariantRun {
  std::vector<PointResult> points;  ///< in its sweep's order, labelled variant.label()
  /// {"label", "env" (what the variant set), "inherited_ucx_env" (UCX_* of the environment it
  /// started from), "ucx" (harness/launch/ucx_log.hpp's ucx_usage, null when UCX logged nothing)}
  nlohmann::json context;
};

/// Runs `launcher -n np <this program> arguments` with the variant's variables set for its
/// ranks, UCX's endpoint log (UCX_LOG_LEVEL=info into a private directory, unless the variant sets
/// UCX_LOG_LEVEL or UCX_LOG_FILE) and the MPI job variables of the calling process removed; its
/// output is kept, not shown. probe: the job only starts MPI and ends (plain mpi's transports,
/// variant.env empty). Waits for it. Throws RuntimeError naming the label and the job's own
/// error line when it fails.
VariantRun run_variant_job(const std::vector<std::string>& launcher, int np,
                           const std::vector<std::string>& arguments, const MpiVariant& variant,
                           bool probe);

/// True for a variable of the calling MPI job (or of comops' supervisor) that the variant's job
/// must not inherit: its launcher and ranks would take it for their own (Hydra's and PMI's, and
/// Open MPI's own MCA parameters for its ranks: ess, orte_*, pmix; the user's OMPI_MCA_* pass).
bool variant_job_drops(const std::string& name);
/// Why a variant's job failed, from its output: its comops error line (without "comops: error:
/// "), else UCX's first error, else MPICH's first fatal error line, else Open MPI's boxed
/// message that names a component (else its first), as "Open MPI: FIRST SENTENCE (framework
/// component)"; "" when there is none.
std::string variant_job_error(const std::string& output);

/// Inside a variant's job: the directory its points go to; "" in any other job.
std::string variant_job_dir();
/// Inside a variant's job: true when it is a probe (measures nothing).
bool variant_job_probe();
/// Inside a variant's job, on world rank 0: appends one measured point for run_variant_job.
/// Throws RuntimeError when it cannot be written.
void write_variant_point(const std::string& dir, const PointResult& point);

}  // namespace comops
