// Orchestration of a run on every MPI world rank: parse, launch, limits, sweep, report, agree.
#include "harness/driver.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <optional>

#include "harness/cli/cli.hpp"
#include "harness/launch/launcher.hpp"
#include "harness/launch/supervisor.hpp"
#include "harness/launch/variant_job.hpp"
#include "harness/machine/node_limits.hpp"
#include "harness/machine/noise.hpp"
#include "harness/ops/app_options.hpp"
#include "harness/ops/op_queries.hpp"
#include "harness/plan/sweep.hpp"
#include "harness/report/metadata.hpp"
#include "harness/report/reporter.hpp"
#include "harness/runtime/nodes.hpp"
#include "harness/runtime/placement.hpp"
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

// Everything after MPI_Init. Throws UsageError / RuntimeError with the same message on every
// rank where it can be known on every rank; rank-local failures are agreed by the caller.
int run_in_world(World& world, Config& config,
                 std::vector<std::unique_ptr<BackendFamily>>& families) {
  std::vector<std::unique_ptr<Backend>> backends;
  for (const auto& name : config.backends)
    for (auto& f : families)
      if (f->name() == name)
        for (auto& b : f->create()) backends.push_back(std::move(b));
  const bool process_backends = needs_processes(config, families);
  Pinning pinning(config.bind);
  const NodeMap nodes = discover_nodes(pinning);
  if (world.is_root()) record_ranks(nodes);
  finalize_config(config, world.size(), under_launcher(), process_backends, pinning.cores());
  config.pairs = resolve_pairs(config.pair, nodes, process_backends);
  for (const auto& b : backends)
    if (max_np(config) > b->max_participants())
      throw UsageError(fmt::format("{} runs at most {} participants here, np={} was asked for",
                                   b->label(), b->max_participants(), max_np(config)));
  std::vector<std::string> skipped;
  const std::vector<Point> points = build_sweep(config, backends, &skipped);
  check_memory(points);
  // Every point's participants, before anything runs (a placement that cannot be made is a
  // usage error on every rank).
  std::vector<Placement> placements;
  for (const Point& p : points)
    placements.push_back(backends[p.backend]->participants() == Participants::kProcesses
                             ? place_processes(nodes, p.np, config.placement, p.pair)
                             : place_threads(nodes, p.np, p.pair));

  // Rank 0 alone looks at --output-dir (other nodes may not see the same file system), before
  // anything is measured; then the warnings, once, after every usage error.
  std::string refused;
  if (world.is_root()) {
    try {
      check_output_dir(config);
    } catch (const UsageError& e) {
      refused = e.what();
    }
  }
  refused = world.broadcast(refused);
  if (!refused.empty()) throw UsageError(refused);
  if (world.is_root())
    for (const auto& w : config.warnings) fmt::print(stderr, "comops: warning: {}\n", w);
  const std::string variant_dir = variant_job_dir();
  if (!variant_dir.empty() && variant_job_probe()) {
    world.quiet_barrier();  // MPI is up and its endpoints are made: what the probe is for
    return kOk;
  }

  // The variants' jobs run first, one at a time, while this job's ranks sleep.
  std::vector<VariantRun> variants;
  {
    std::string error;
    if (world.is_root()) {
      try {
        pinning.unbind_self();  // their ranks bind themselves, on every core
        variants = run_variants(config, world.size());
      } catch (const std::exception& e) {
        error = e.what();
      }
    }
    world.quiet_barrier();
    error = world.broadcast(error);
    if (!error.empty()) throw RuntimeError(error);
  }

  // Each node's lowest rank measures its node while the other ranks wait quietly; then the
  // network between the first two nodes; then rank 0 opens the outputs.
  const auto idle = world.is_root() ? cpu_idle_share(200) : std::nullopt;
  std::vector<std::size_t> memcpy_sizes = config.sizes;
  if (np_tables(config)) memcpy_sizes.push_back(config.np_bytes);
  std::sort(memcpy_sizes.begin(), memcpy_sizes.end());
  memcpy_sizes.erase(std::unique(memcpy_sizes.begin(), memcpy_sizes.end()), memcpy_sizes.end());
  const std::vector<NodeFacts> facts =
      survey_nodes(world, nodes, pinning, memcpy_sizes, max_np(config), config.limits);
  MachineLimits limits = world.is_root() ? facts.at(0).limits : MachineLimits{};
  if (config.limits) limits.network = measure_network(world, nodes, pinning);
  std::vector<std::unique_ptr<Reporter>> reporters;
  std::string failure;
  const bool psi = cpu_stall_total_us().has_value();
  if (world.is_root()) {
    try {
      if (variant_dir.empty()) {
        for (const auto& s : skipped) fmt::print(stderr, "comops: note: {}, skipped\n", s);
        auto context =
            run_context(config, world.size(), pinning, limits, idle, psi, backends, nodes, facts);
        if (!variants.empty()) {
          context["mpi_variants"] = nlohmann::json::array();
          for (const auto& v : variants) context["mpi_variants"].push_back(v.context);
        }
        reporters = open_reporters(config, limits, nodes, context, idle);
      }
    } catch (const std::exception& e) {
      failure = e.what();
    }
  }
  world.quiet_barrier();
  failure = world.broadcast(failure);
  if (!failure.empty()) throw RuntimeError(failure);

  // Rank 0 alone shows progress; the estimate of what remains weighs each point by its cost.
  std::vector<double> costs;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const MeasureOptions o = options_for(config, placements[i].oversubscribed);
    costs.push_back(expected_cost_us(
        points[i].bytes * static_cast<std::size_t>(points[i].window),  // a window: W messages
        starting_iterations(o, points[i].bytes), o.repetitions));
  }
  Progress progress(world.is_root() ? config.progress : "never", costs, points.size());
  // A failure on any rank (measuring on every rank, writing on rank 0) ends the run on every
  // rank; the outputs still get what was measured before.
  auto stop_if_any_failed = [&](const std::string& error, const std::string& elsewhere) {
    if (world.max(error.empty() ? 0 : 1) == 0) return;
    progress.done();
    each_reporter(reporters, [](Reporter& r) { r.finish(); });
    throw RuntimeError(error.empty() ? elsewhere : error);
  };
  std::int64_t wrong = 0;
  std::size_t mpi_points = 0;  // the mpi points reported so far: the variants' points follow each
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Point& p = points[i];
    const Placement& placement = placements[i];
    Backend& backend = *backends[p.backend];
    const Args args = args_for(p);
    const bool over = placement.oversubscribed;
    if (world.is_root())
      progress.step(fmt::format("{} {} np={} {}", backend.label(), op_name(p.op), p.np,
                                op_is_app(p.op) ? app_params_text(p.app) : format_size(p.bytes)));
    PointResult result;
    std::string error;
    try {
      MeasureOptions options = options_for(config, over);
      if (i != config.inject_point) options.inject_throw = Phase::kNone;
      result = measure_point(backend, args, options, pinning, placement);
      for (int node : placement.node)
        result.hosts.push_back(nodes.host[static_cast<std::size_t>(node)]);
    } catch (const std::exception& e) {
      error = e.what();
    }
    world.quiet_barrier();
    stop_if_any_failed(error, fmt::format("{} failed on another rank", point_name(result)));
    if (world.is_root()) {
      // The stall over the timed repetitions (measure_point), not over the whole point: warm-up,
      // validation and the parked ranks waking are no contention of the timed numbers.
      const Row row = make_row(result, limits, over, result.cpu_stall_us,
                               result.cpu_stall_window_us, p.size_table, p.np_table);
      progress.clear();  // the row goes to stdout, maybe the same terminal
      error = each_reporter(reporters, [&](Reporter& r) { r.add(row); });
      wrong += result.wrong;
      if (!variant_dir.empty()) {
        try {
          write_variant_point(variant_dir, result);
        } catch (const std::exception& e) {
          error = e.what();
        }
      }
      if (backend.label() == "mpi") {
        for (std::size_t v = 1; v < variants.size() && error.empty(); ++v) {
          const auto& measured = variants[v].points;
          if (mpi_points >= measured.size() || measured[mpi_points].args.op != p.op ||
              measured[mpi_points].args.np != p.np || measured[mpi_points].args.bytes != p.bytes ||
              measured[mpi_points].pair != p.pair || measured[mpi_points].args.app != p.app) {
            error = fmt::format("{}: its job measured other points than mpi",
                                variants[v].context["label"].get<std::string>());
            break;
          }
          const PointResult& vp = measured[mpi_points];
          const Row vrow = make_row(vp, limits, over, vp.cpu_stall_us, vp.cpu_stall_window_us,
                                    p.size_table, p.np_table);
          error = each_reporter(reporters, [&](Reporter& r) { r.add(vrow); });
          wrong += vp.wrong;
        }
        ++mpi_points;
      }
    }
    stop_if_any_failed(error, "an output file could not be written on rank 0");
  }
  progress.done();
  const std::string finished = each_reporter(reporters, [](Reporter& r) { r.finish(); });
  if (world.max(finished.empty() ? 0 : 1) != 0) throw RuntimeError(finished);
  if (world.is_root() && wrong > 0)
    fmt::print(stderr, "comops: error: {} wrong element(s) in the results\n", wrong);
  return world.max(wrong > 0 ? kWrong : kOk);
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
        return run_under_launcher(launcher_command(config.mpiexec), max_np(probe), argc, argv);
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
