// Measuring one point (backend, op, np, size) on every participant: buffers, warm-up, timed
// repetitions (calls back to back, or a barrier before each call), statistics over ranks,
// per-call percentiles, validation of operations run back to back with fresh seeds, counters.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "comops/op.hpp"
#include "harness/runtime/pinning.hpp"
#include "harness/runtime/placement.hpp"
#include "harness/util/stats.hpp"

namespace comops {

/// Where a participant can be made to fail on purpose (hidden --inject-throw, for tests): after
/// its buffers are allocated, in the warm-up, halfway through the first timed repetition, after
/// the validation operation.
enum class Phase { kNone, kSetup, kWarmup, kTimed, kValidation };

/// The phase named `name` (setup, warmup, timed, validation), or nullopt.
std::optional<Phase> parse_phase(const std::string& name);

/// How the calls of a timed repetition are timed (--sync).
enum class Sync {
  kNone,     ///< calls back to back, one barrier per repetition; the clock spans them all
  kBarrier,  ///< the backend's barrier before each call, the clock around the call alone (OSU)
};

/// The Sync named `name` (none, barrier), or nullopt.
std::optional<Sync> parse_sync(const std::string& name);
/// "none" or "barrier".
const char* sync_name(Sync sync);
/// What the method does, as the tables' headers and the JSON context name it, e.g. "sync none:
/// calls back to back, one barrier per repetition".
std::string sync_description(Sync sync);

/// Operations the validation runs back to back, as the timed loop runs them, each with its own
/// seed and each checked exactly after the last has run: an op whose next operation overtakes
/// the current one (a missing closing barrier) is caught.
inline constexpr int kValidationOps = 2;

/// The seed of validation operation k (0 .. kValidationOps-1): `seed` (--seed) for the first, a
/// different one derived from it for each next.
std::uint64_t validation_seed(std::uint64_t seed, int k);

/// How a point is measured. Zero / negative values mean "chosen by size" (see iterations_for).
struct MeasureOptions {
  int iterations = 0;         ///< timed back-to-back iterations per repetition; 0: by size
  int warmup = -1;            ///< untimed iterations before the repetitions; -1: by iterations
  int repetitions = 5;        ///< timed repetitions
  std::uint64_t seed = 1;     ///< first validation op's seed (the next ones derive theirs from it)
  bool inject_fault = false;  ///< hidden: corrupt one element the first validation op received
  Phase inject_throw = Phase::kNone;  ///< hidden: the last participant throws in this phase
  Sync sync = Sync::kNone;            ///< --sync
  bool percentiles = false;           ///< --percentiles: time each call alone also with Sync::kNone
  /// The point has more participants than cores on a node: iterations chosen by size start from
  /// iterations_for / 100 (at least 5), and the time budgets still lower them. Given counts
  /// (iterations > 0) are honoured as they are.
  bool oversubscribed = false;
};

/// Whether each call is timed alone, so that a point has per-call percentiles: always with
/// Sync::kBarrier, with Sync::kNone when percentiles are asked for (a clock read after each call).
bool samples_calls(const MeasureOptions& options);

/// Default iteration count for a message of `bytes` (documented in docs/running.md). measure_point
/// lowers it further, to at least 1, so that one repetition takes about 0.1 s, judged from the
/// slowest participant's warm-up (and the warm-up to about 0.1 s, judged from the first operation).
int iterations_for(std::size_t bytes);
/// The iteration count a point of `bytes` starts from: the given one, else iterations_for(bytes),
/// divided by 100 (at least 5) when options.oversubscribed. Only a count chosen here by size is
/// lowered by the time budgets.
int starting_iterations(const MeasureOptions& options, std::size_t bytes);
/// Default warm-up count for `iterations` timed iterations.
int warmup_for(int iterations);

/// What one point measured; complete on world rank 0 (other ranks get a partial copy).
struct PointResult {
  std::string backend;
  Args args;
  int iterations = 0;
  int warmup = 0;
  int repetitions = 0;
  double time_min_us = 0;          ///< per-iteration time: min over timed ranks, median over reps
  double time_avg_us = 0;          ///< avg over timed ranks, median over reps
  double time_max_us = 0;          ///< max over timed ranks, median over reps (the headline)
  std::vector<double> rep_max_us;  ///< max over timed ranks of each repetition
  /// Per-call time percentiles when each call was timed alone (samples_calls): over every timed
  /// call of every repetition, each call's time the max over timed ranks of that call.
  std::optional<Percentiles> percentiles_us;
  std::int64_t wrong = 0;          ///< wrong elements over all participants
  std::vector<int> cores;          ///< core of each participant (-1: unbound)
  std::vector<std::string> hosts;  ///< host of each participant (filled by the driver)
  int nodes = 1;                   ///< nodes the participants span
  Pair pair = Pair::kNone;         ///< ping-pong: where participant 1 sat
  Counters counters;               ///< backend counters of the timed iterations, summed
  /// How long the most stalled timed participant (the largest share of its window) waited for a
  /// CPU during the timed repetitions, in us (harness/machine/noise.hpp: its own run delay, or the
  /// node's PSI stall); none when unreadable.
  std::optional<double> cpu_stall_us;
  double cpu_stall_window_us = 0;  ///< that participant's timed wall time (most_stalled)
  /// The steal of the timed participant whose CPUs lost the largest share of its window to the
  /// hypervisor during the timed repetitions, per CPU of its own (harness/machine/steal.hpp), in
  /// us; none when /proc/stat was unreadable.
  std::optional<double> cpu_steal_us;
  double cpu_steal_window_us = 0;  ///< that participant's timed wall time, read with its steal
};

/// Measures one point on the participants of `placement`, each bound by its index among the
/// point's participants on its own node. Collective over every MPI world rank (call it
/// everywhere, in the same order). Throws RuntimeError on every rank that knows of a failure
/// (allocation, backend); the failure is agreed by all participants before timing, so no
/// participant is left waiting.
PointResult measure_point(Backend& backend, const Args& args, const MeasureOptions& options,
                          const Pinning& pinning, const Placement& placement);

/// The same on world ranks (or threads) 0 .. np-1 of one node.
PointResult measure_point(Backend& backend, const Args& args, const MeasureOptions& options,
                          const Pinning& pinning);

}  // namespace comops
