// Orchestration of a run on every MPI world rank: parse, launch, limits, sweep, report, agree.
#include "harness/driver.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <optional>

#include "harness/cli/cli.hpp"
#include "harness/launch/launcher.hpp"
#include "harness/launch/rank_starts.hpp"
#include "harness/launch/supervisor.hpp"
#include "harness/launch/variant_job.hpp"
#include "harness/machine/node_limits.hpp"
#include "harness/machine/noise.hpp"
#include "harness/machine/placement_probe.hpp"
#include "harness/ops/app_options.hpp"
#include "harness/ops/op_queries.hpp"
#include "harness/plan/sweep.hpp"
#include "harness/report/metadata.hpp"
#include "harness/report/reporter.hpp"
#include "harness/runtime/nodes.hpp"
#include "harness/runtime/placement.hpp"
#include "harness/runtime/watchdog.hpp"
#include "harness/runtime/world.hpp"
#include "harness/util/progress.hpp"
#include "harness/util/sizes.hpp"

namespace comops {
namespace {

enum ExitCode { kOk = 0, kWrong = 1, kUsage = 2, kRuntime = 3 };

void print_error(const std::string& message) { fmt::print(stderr, "comops: error: {}\n", message); }

// Participants every sweep point's memory needs at most, against the machine's memory.
void check_memory(const std::vector<Point>& points) {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return;
  const double machine = static_cast<double>(pages) * static_cast<double>(page);
  for (const auto& p : points) {
    const Args a = args_for(p);
    double total = 0;
    for (int r = 0; r < a.np; ++r)
      total += static_cast<double>(send_count(a, r) + recv_count(a, r)) * kElemBytes;
    if (total > 0.8 * machine)
      throw RuntimeError(fmt::format(
          "{} at {} bytes with np={} needs {:.1f} GiB of buffers, more than this machine's {:.1f} "
          "GiB can hold",
          op_name(a.op), a.bytes, a.np, total / (1 << 30), machine / (1 << 30)));
  }
}

// Rows go to stdout as they finish (the live reporter) and again, summarized and in tables, at the
// end (the table reporter, also into table.txt).
std::vector<std::unique_ptr<Reporter>> open_reporters(const Config& c, const MachineLimits& limits,
                                                      const NodeMap& nodes,
                                                      const nlohmann::json& context,
                                                      std::optional<double> idle_share) {
  if (!c.out.dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(c.out.dir, ec);
    if (ec) throw RuntimeError(fmt::format("cannot create {}: {}", c.out.dir, ec.message()));
  }
  std::vector<std::unique_ptr<Reporter>> reps;
  const bool several_nodes = nodes.nodes() > 1;
  reps.push_back(make_live_reporter(several_nodes, c.measure.sync));
  reps.push_back(make_table_reporter(c.out.table, c, limits, nodes, idle_share));
  if (!c.out.csv.empty()) reps.push_back(make_csv_reporter(c.out.csv));
  if (!c.out.json.empty())
    reps.push_back(make_json_reporter(c.out.json, context, SummaryLayout{c.ops, several_nodes}));
  if (!c.out.gbench_json.empty()) reps.push_back(make_gbench_reporter(c.out.gbench_json, context));
  return reps;
}

// Calls fn on every reporter, even after one failed, so the others keep every row; returns the
// first failure's message, or "".
std::string each_reporter(std::vector<std::unique_ptr<Reporter>>& reporters,
                          const std::function<void(Reporter&)>& fn) {
  std::string first;
  for (auto& r : reporters) {
    try {
      fn(*r);
    } catch (const std::exception& e) {
      if (first.empty()) first = e.what();
    }
  }
  return first;
}

// Default iterations shrink when the run is oversubscribed (starting_iterations); they stay
// chosen by size, so the time budgets of measure_point still bound a repetition.
MeasureOptions options_for(const Config& c, bool oversubscribed) {
  MeasureOptions o = c.measure;
  o.oversubscribed = oversubscribed;
  return o;
}

// True when a selected backend's participants are MPI processes.
bool needs_processes(const Config& config,
                     const std::vector<std::unique_ptr<BackendFamily>>& families) {
  for (const auto& f : families)
    for (const auto& name : config.backends)
      if (f->name() == name && f->needs_processes()) return true;
  return false;
}

// Inside a variant's job (harness/launch/variant_job.hpp): the mpi backend alone, the same sweep,
// no limits, outputs, notes or variants of its own; its points go back to the job that started it.
void as_variant_job(Config& config) {
  config.backends = {"mpi"};
  config.mpi_variants.clear();
  config.out = OutputPaths{};
  config.force = false;
  config.limits = false;
  config.progress = "never";
  config.warnings.clear();
  config.measure.inject_throw = Phase::kNone;
}

// On world rank 0, before anything is measured: plain mpi's UCX transports (a job that only
// starts MPI), then each variant's job, which measures its points.
std::vector<VariantRun> run_variants(const Config& config, int world_size) {
  std::vector<VariantRun> runs;
  if (config.mpi_variants.empty()) return runs;
  const auto launcher = launcher_command(config.mpiexec);
  runs.push_back(run_variant_job(launcher, world_size, config.arguments, MpiVariant{}, true));
  for (const MpiVariant& v : config.mpi_variants)
    runs.push_back(run_variant_job(launcher, world_size, config.arguments, v, false));
  return runs;
}

// What the run measures: the backends, their points, where each point's participants run, and
// the points the sweep left out (notes).
struct Sweep {
  std::vector<std::unique_ptr<Backend>> backends;
  std::vector<Point> points;
  std::vector<Placement> placements;
  std::vector<std::string> skipped;
};

// The machine before any point: rank 0's idle share, each node's facts, the limits.
struct Survey {
  std::optional<double> idle;
  std::vector<NodeFacts> facts;
  MachineLimits limits;
};

std::vector<std::unique_ptr<Backend>> create_backends(
    const Config& config, std::vector<std::unique_ptr<BackendFamily>>& families) {
  std::vector<std::unique_ptr<Backend>> backends;
  for (const auto& name : config.backends)
    for (auto& f : families)
      if (f->name() == name)
        for (auto& b : f->create()) backends.push_back(std::move(b));
  return backends;
}

// The points of the sweep and every point's participants, before anything runs (too many
// participants, or a placement that cannot be made, is a usage error on every rank).
void plan_points(const Config& config, const NodeMap& nodes, Sweep& sweep) {
  for (const auto& b : sweep.backends)
    if (max_np(config) > b->max_participants())
      throw UsageError(fmt::format("{} runs at most {} participants here, np={} was asked for",
                                   b->label(), b->max_participants(), max_np(config)));
  sweep.points = build_sweep(config, sweep.backends, &sweep.skipped);
  drop_beyond_node0(nodes, sweep.backends, sweep.points, &sweep.skipped);
  check_memory(sweep.points);
  for (const Point& p : sweep.points)
    sweep.placements.push_back(place_point(*sweep.backends[p.backend], nodes, p, config.placement));
}

// Rank 0 alone looks at --output-dir (other nodes may not see the same file system), before
// anything is measured; then the warnings, once, after every usage error.
void check_outputs(const World& world, const Config& config) {
  on_root_agreed<UsageError, UsageError>(world, [&] { check_output_dir(config); });
  if (world.is_root())
    for (const auto& w : config.warnings) fmt::print(stderr, "comops: warning: {}\n", w);
}

// The variants' jobs run first, one at a time, while this job's ranks sleep.
std::vector<VariantRun> run_variants_first(const World& world, const Config& config,
                                           const Pinning& pinning) {
  std::vector<VariantRun> variants;
  on_root_agreed<RuntimeError>(world, [&] {
    pinning.unbind_self();  // their ranks bind themselves, on every core
    variants = run_variants(config, world.size());
  });
  return variants;
}

// Each node's lowest rank measures its node while the other ranks wait quietly; then the
// network between the first two nodes.
Survey survey_machine(const World& world, const Config& config, const NodeMap& nodes,
                      const Pinning& pinning) {
  Survey survey;
  survey.idle = world.is_root() ? cpu_idle_share(200) : std::nullopt;
  std::vector<std::size_t> memcpy_sizes = config.sizes;
  if (np_tables(config)) memcpy_sizes.push_back(config.np_bytes);
  std::sort(memcpy_sizes.begin(), memcpy_sizes.end());
  memcpy_sizes.erase(std::unique(memcpy_sizes.begin(), memcpy_sizes.end()), memcpy_sizes.end());
  survey.facts = survey_nodes(world, nodes, pinning, memcpy_sizes, max_np(config), config.limits);
  survey.limits = world.is_root() ? survey.facts.at(0).limits : MachineLimits{};
  if (config.limits) survey.limits.network = measure_network(world, nodes, pinning);
  return survey;
}

// Rank 0 opens the outputs (none inside a variant's job), with the run's context and the
// variants' in it.
std::vector<std::unique_ptr<Reporter>> open_outputs(const World& world, const Config& config,
                                                    const Sweep& sweep, const NodeMap& nodes,
                                                    const Pinning& pinning, const Survey& survey,
                                                    const std::vector<VariantRun>& variants) {
  std::vector<std::unique_ptr<Reporter>> reporters;
  const bool psi = cpu_stall_total_us().has_value();
  on_root_agreed<RuntimeError>(world, [&] {
    if (!variant_job_dir().empty()) return;
    for (const auto& s : sweep.skipped) fmt::print(stderr, "comops: note: {}, skipped\n", s);
    auto context = run_context(config, world.size(), pinning, survey.limits, survey.idle, psi,
                               sweep.backends, nodes, survey.facts);
    if (!variants.empty()) {
      context["mpi_variants"] = nlohmann::json::array();
      for (const auto& v : variants) context["mpi_variants"].push_back(v.context);
    }
    reporters = open_reporters(config, survey.limits, nodes, context, survey.idle);
  });
  return reporters;
}

// Every point's expected cost, by which the progress display weighs what remains.
std::vector<double> point_costs(const Config& config, const Sweep& sweep) {
  std::vector<double> costs;
  for (std::size_t i = 0; i < sweep.points.size(); ++i) {
    const Point& p = sweep.points[i];
    const MeasureOptions o = options_for(config, sweep.placements[i].oversubscribed);
    costs.push_back(expected_cost_us(p.bytes * static_cast<std::size_t>(p.window),  // W messages
                                     starting_iterations(o, p.bytes), o.repetitions));
  }
  return costs;
}

// The points one after the other on every rank: each measured, then reported on rank 0 (an mpi
// point with the variants' rows of it). A failure on any rank (measuring on every rank, writing
// on rank 0) ends the run on every rank; the outputs still get what was measured before.
class PointLoop {
 public:
  PointLoop(const World& world, const Config& config, const Sweep& sweep, const NodeMap& nodes,
            const Pinning& pinning, const MachineLimits& limits,
            const std::vector<VariantRun>& variants,
            std::vector<std::unique_ptr<Reporter>>& reporters)
      : world_(world),
        config_(config),
        sweep_(sweep),
        nodes_(nodes),
        pinning_(pinning),
        limits_(limits),
        variants_(variants),
        reporters_(reporters),
        point_costs_(point_costs(config, sweep)),
        // Rank 0 alone shows progress.
        progress_(world.is_root() ? config.progress : "never", point_costs_, sweep.points.size()) {}

  // The run's exit code, agreed by every rank.
  int run() {
    if (world_.is_root()) record_rows(0);
    for (std::size_t i = 0; i < sweep_.points.size(); ++i) {
      std::string error;
      probe_before(i);
      const PointResult result = measure(i, error);
      watchdog_between("the end of a point");
      world_.quiet_barrier();  // every rank has left its timed window
      probe_after();
      stop_if_any_failed(error, fmt::format("{} failed on another rank", point_name(result)));
      if (world_.is_root()) {
        error = report(i, result);
        record_rows(rows_);  // what the supervisor's line says an early end kept
      }
      stop_if_any_failed(error, "an output file could not be written on rank 0");
    }
    progress_.done();
    watchdog_between("the end of the run");
    const std::string finished = each_reporter(reporters_, [](Reporter& r) { r.finish(); });
    if (world_.max(finished.empty() ? 0 : 1) != 0) throw RuntimeError(finished);
    if (world_.is_root() && wrong_ > 0)
      fmt::print(stderr, "comops: error: {} wrong element(s) in the results\n", wrong_);
    return world_.max(wrong_ > 0 ? kWrong : kOk);
  }

 private:
  // On rank 0, point i's placement probe, while the other ranks wait asleep in the barrier (a
  // spinning rank would take the probe's core).
  void probe_before(std::size_t i) {
    probe_.reset();
    if (!config_.placement_probe) return;
    if (world_.is_root()) {
      probe_cores_ = probe_cores(pinning_, sweep_.placements[i]);
      if (probe_cores_) {
        PlacementProbe p;
        p.before_us = probe_round_trip_us(pinning_, *probe_cores_, p.core_a, p.core_b);
        probe_ = p;
      }
    }
    world_.quiet_barrier();
    // The ranks asleep in it wake up to 2 ms after the probe ends; one that starts the point that
    // late runs its start in another rank's timed window (a shm point's team on rank 0), and
    // stalls it. Every rank leaves a plain barrier within microseconds of the last arrival.
    world_.barrier();
  }

  // On rank 0, the probe again just after the point, once every rank has left its timed window
  // (a probe while a rank still measures would stall it), while the others wait asleep in the
  // barrier that ends it.
  void probe_after() {
    if (!config_.placement_probe) return;
    if (probe_) {
      int a = -1, b = -1;
      probe_->after_us = probe_round_trip_us(pinning_, *probe_cores_, a, b);
    }
    world_.quiet_barrier();
  }

  // Point i measured on this rank; `error` gets what failed here.
  PointResult measure(std::size_t i, std::string& error) {
    const Point& p = sweep_.points[i];
    const Placement& placement = sweep_.placements[i];
    Backend& backend = *sweep_.backends[p.backend];
    const std::string label =
        fmt::format("{} {} np={} {}", backend.label(), op_name(p.op), p.np,
                    op_is_app(p.op) ? app_params_text(p.app) : format_size(p.bytes));
    if (world_.is_root()) progress_.step(label);
    watchdog_point(label, takes_part(backend, placement) ? 0.0 : parked_s(i));
    PointResult result;
    try {
      MeasureOptions options = options_for(config_, placement.oversubscribed);
      if (i != config_.inject_point) options.inject_throw = Phase::kNone;
      result = measure_point(backend, args_for(p), options, pinning_, placement);
      for (int node : placement.node)
        result.hosts.push_back(nodes_.host[static_cast<std::size_t>(node)]);
    } catch (const std::exception& e) {
      error = e.what();
    }
    return result;
  }

  // Whether this rank runs point i's body: one of its processes, or rank 0 for threads.
  bool takes_part(const Backend& backend, const Placement& placement) const {
    if (backend.participants() == Participants::kThreads) return world_.is_root();
    const std::vector<int>& ranks = placement.group.ranks;
    return std::find(ranks.begin(), ranks.end(), world_.rank()) != ranks.end();
  }

  // What a rank parked for point i (not a participant: it sees none of the point's steps) may
  // wait beyond the base allowance: ten times the base and the point's expected cost, a given
  // iteration count counted in full (docs/running.md).
  double parked_s(std::size_t i) const {
    const Point& p = sweep_.points[i];
    const MeasureOptions o = options_for(config_, sweep_.placements[i].oversubscribed);
    const double given_us =
        o.iterations > 0 ? expected_call_us(p.bytes * p.window) * o.iterations * o.repetitions
                         : 0.0;
    const double expected_s = std::max(point_costs_[i], given_us) * 1e-6;
    return WatchdogLimits::kStepFactor * (config_.watchdog_s + expected_s);
  }

  // On rank 0: point i's row into every output (and into the points file of a variant's job);
  // returns the first failure's message, or "".
  std::string report(std::size_t i, const PointResult& result) {
    const Point& p = sweep_.points[i];
    const bool over = sweep_.placements[i].oversubscribed;
    // The stall over the timed repetitions (measure_point), not over the whole point: warm-up,
    // validation and the parked ranks waking are no contention of the timed numbers.
    Row row = make_row(result, limits_, over, result.cpu_stall_us, result.cpu_stall_window_us,
                       p.size_table, p.np_table);
    row.placement = probe_;
    progress_.clear();  // the row goes to stdout, maybe the same terminal
    std::string error = each_reporter(reporters_, [&](Reporter& r) { r.add(row); });
    ++rows_;
    wrong_ += result.wrong;
    if (!variant_dir_.empty()) {
      try {
        write_variant_point(variant_dir_, result);
      } catch (const std::exception& e) {
        error = e.what();
      }
    }
    if (sweep_.backends[p.backend]->label() == "mpi") {
      if (error.empty()) error = report_variants(p, over);
      ++mpi_points_;  // the variants' points follow mpi's, one for each
    }
    return error;
  }

  // On rank 0: each variant's row of the mpi point p; returns the first failure's message.
  std::string report_variants(const Point& p, bool over) {
    std::string error;
    for (std::size_t v = 1; v < variants_.size() && error.empty(); ++v) {
      const auto& measured = variants_[v].points;
      if (mpi_points_ >= measured.size() || measured[mpi_points_].args.op != p.op ||
          measured[mpi_points_].args.np != p.np || measured[mpi_points_].args.bytes != p.bytes ||
          measured[mpi_points_].pair != p.pair || measured[mpi_points_].args.app != p.app)
        return fmt::format("{}: its job measured other points than mpi",
                           variants_[v].context["label"].get<std::string>());
      const PointResult& vp = measured[mpi_points_];
      const Row vrow = make_row(vp, limits_, over, vp.cpu_stall_us, vp.cpu_stall_window_us,
                                p.size_table, p.np_table);
      error = each_reporter(reporters_, [&](Reporter& r) { r.add(vrow); });
      ++rows_;
      wrong_ += vp.wrong;
    }
    return error;
  }

  void stop_if_any_failed(const std::string& error, const std::string& elsewhere) {
    if (world_.max(error.empty() ? 0 : 1) == 0) return;
    progress_.done();
    each_reporter(reporters_, [](Reporter& r) { r.finish(); });
    throw RuntimeError(error.empty() ? elsewhere : error);
  }

  const World& world_;
  const Config& config_;
  const Sweep& sweep_;
  const NodeMap& nodes_;
  const Pinning& pinning_;
  const MachineLimits& limits_;
  const std::vector<VariantRun>& variants_;
  std::vector<std::unique_ptr<Reporter>>& reporters_;
  const std::string variant_dir_ = variant_job_dir();  // inside a variant's job: its directory
  const std::vector<double> point_costs_;              // us, in sweep order (point_costs)
  Progress progress_;
  std::optional<PlacementProbe> probe_;             // rank 0: the current point's probe
  std::optional<std::pair<int, int>> probe_cores_;  // the cores it runs between
  std::int64_t wrong_ = 0;
  std::size_t rows_ = 0;        // rows given to the reporters
  std::size_t mpi_points_ = 0;  // the mpi points reported so far
};

// Everything after MPI_Init. Throws UsageError / RuntimeError with the same message on every
// rank where it can be known on every rank; rank-local failures are agreed by the caller.
int run_in_world(World& world, Config& config,
                 std::vector<std::unique_ptr<BackendFamily>>& families) {
  Sweep sweep;
  sweep.backends = create_backends(config, families);
  const bool process_backends = needs_processes(config, families);
  Pinning pinning(config.bind);
  const NodeMap nodes = discover_nodes(pinning);
  if (world.is_root()) record_ranks(nodes);
  finalize_config(config, world.size(), under_launcher(), process_backends, pinning.cores());
  config.pairs = resolve_pairs(config.pair, nodes, process_backends);
  plan_points(config, nodes, sweep);
  check_outputs(world, config);
  if (!variant_job_dir().empty() && variant_job_probe()) {
    world.quiet_barrier();  // MPI is up and its endpoints are made: what the probe is for
    return kOk;
  }
  const std::vector<VariantRun> variants = run_variants_first(world, config, pinning);
  const Survey survey = survey_machine(world, config, nodes, pinning);
  std::vector<std::unique_ptr<Reporter>> reporters =
      open_outputs(world, config, sweep, nodes, pinning, survey, variants);
  // The watchdog from the first point to the last: before, rank 0 alone may be busy for long
  // (the variants' jobs, the survey) while the others wait.
  watchdog_start(WatchdogLimits{config.watchdog_s},
                 WatchdogIdentity{world.rank(), nodes.host_of_rank(world.rank())});
  struct StopWatchdog {
    ~StopWatchdog() { watchdog_stop(); }
  } stop_watchdog;
  return PointLoop(world, config, sweep, nodes, pinning, survey.limits, variants, reporters).run();
}

}  // namespace

int run_comops(int argc, char** argv) {
  std::vector<std::unique_ptr<BackendFamily>> families;
  Config config;
  try {
    families = backend_families();
    config = parse_command_line(argc, argv, families);
    if (!variant_job_dir().empty()) as_variant_job(config);
    if (needs_processes(config, families) && !under_launcher()) {
      // The world must hold the largest np; without --np that is known only after the topology,
      // so size it from the defaults finalize_config would choose.
      // Inside a batch allocation (salloc, sbatch) the default counts go up to its tasks.
      Config probe = config;
      const LaunchSlots slots = launch_slots(Pinning(config.bind).cores());
      finalize_config(probe, 1, false, false, slots.count);
      check_launch_size(max_np(probe), slots);
      if (max_np(probe) > 1)
        return run_under_launcher(launcher_command(config.mpiexec), max_np(probe), argc, argv,
                                  config.startup_s);
    }
  } catch (const EarlyExit& e) {
    fmt::print("{}", e.text);
    return kOk;
  } catch (const UsageError& e) {
    print_error(e.what());
    return kUsage;
  } catch (const std::exception& e) {
    print_error(e.what());
    return kRuntime;
  }

  announce_rank_start();  // before MPI_Init: the supervisor's start-up bound counts it
  World world(&argc, &argv);
  int code = kOk;
  std::string message;
  try {
    code = run_in_world(world, config, families);
  } catch (const UsageError& e) {
    code = kUsage;
    message = e.what();
  } catch (const std::exception& e) {
    code = kRuntime;
    message = e.what();
  }
  if (code >= kUsage && world.is_root()) print_error(message);
  return code;
}

}  // namespace comops
