// CLI11's definition of every comops option: its name, help, --help group and default, into the
// CommandLine that cli.cpp checks and turns into a Config.
#include "harness/cli/cli_options.hpp"

#include <fmt/format.h>

#include "harness/launch/launcher.hpp"
#include "harness/ops/app_options.hpp"
#include "harness/ops/op_queries.hpp"
#include "harness/ops/op_selection.hpp"
#include "harness/util/help_formatter.hpp"

namespace comops {
namespace {

// The --help footer after its first words, "The default run: every backend (NAMES)", whose names
// come from the families (footer()). Paragraphs, wrapped by HelpFormatter.
constexpr const char* kFooterAfterBackends =
    R"(, each with its
options' defaults, and every op (reduce = max), at 8 B to 8 MiB in powers of two with --size-np
participants; then, when --np comes to more than one count (2, 4, 8, ... up to the cores), each op's
time-versus-nprocs table at 800K (--np-bytes); the barrier has only that table.

Definitions: every table prints its op's definition (time, bandwidth, what the size is) under
its title; all of them, with each op's bandwidth factor, are in docs/metrics.md. GB = 1e9 bytes;
sizes accept K, M, G = 1024.

Default iterations: 64 MiB / size, clamped to 20..10000 (divided by 100, at least 5, when the run
is oversubscribed), then lowered (to at least 1) so that one repetition takes about 0.1 s on the
slowest participant's warm-up; default warm-up: iterations / 10, at least 2, lowered (to at least
1) so that it takes about 0.1 s judged from the first operation.

Run directly, comops launches itself under mpiexec with as many processes as the largest --np
needs (at most 16 per core, or per task of a Slurm allocation) and stays beside the job: a lost
rank, a failed launcher or SIGINT/SIGTERM end in one comops line and exit 3 (130/143 for the
signals). Run under mpiexec -n N or srun, it uses the N ranks it was given. On several nodes,
--pair and --placement choose who takes part; every row gives its hosts and the number of nodes it
spans.

Output files are replaced atomically after every point; a device or FIFO (/dev/stdout) is written
into, never replaced, and gets the JSON documents once at the end.

Exit codes: 0 ok, 1 a result was wrong, 2 bad input, 3 run-time failure.)";

constexpr const char* kGeneral = "General";
constexpr int kMaxWindow = 1 << 20;  // --window: W MPI requests and W x size bytes per side
// The --help groups of the options defined here (--help shows the groups, and the options in
// each, in the order the options are defined).
const std::vector<std::pair<const char*, std::vector<const char*>>> kGroups = {
    {kGeneral, {"--backend", "--op", "--reduce-op"}},
    {"Sizes and participants",
     {"--np", "--size-np", "--sizes", "--min-bytes", "--max-bytes", "--step-factor", "--np-bytes"}},
    {"Measurement",
     {"--iters", "--warmup", "--repetitions", "--seed", "--sync", "--percentiles", "--no-limits",
      "--placement-probe", "--window"}},
    {"Placement", {"--bind", "--placement", "--pair", "--mpiexec"}},
    {"Faults", {"--startup-timeout", "--watchdog"}},
    {"mpi backend", {"--mpi-variant"}},
    {"Output", {"--output-dir", "--force", "--csv", "--json", "--gbench-json", "--progress"}},
    {"Applications", {"--app"}},
    {"OSU aliases", {"-m", "-i", "-x"}},
};

// For unsigned options: CLI11 would wrap "-1" around to the largest value.
const CLI::Validator kNotNegative(
    [](const std::string& value) {
      const auto first = value.find_first_not_of(" \t");
      return first != std::string::npos && value[first] == '-'
                 ? fmt::format("must be 0 or more, not {}", value)
                 : std::string();
    },
    "");

// --backend, --op, --reduce-op: what runs.
void add_selection_options(CommandLine& cl,
                           const std::vector<std::unique_ptr<BackendFamily>>& families) {
  CLI::App& app = cl.app;
  std::string backend_help = "Backends to run, comma-separated, or all:";
  for (const auto& f : families) backend_help += "\n  " + f->name() + ": " + f->description();
  app.add_option("--backend", cl.backend_names, backend_help)
      ->capture_default_str()
      ->type_name("LIST");
  app.add_option("--op", cl.op_names, op_option_help())->capture_default_str()->type_name("LIST");
  app.add_option("--reduce-op", cl.reduce_ops, reduce_op_option_help())
      ->capture_default_str()
      ->type_name("LIST");
}

// --np, --size-np and the sizes of the sweep.
void add_sweep_options(CommandLine& cl) {
  CLI::App& app = cl.app;
  Config& c = cl.config;
  app.add_option("--np", cl.np_text,
                 "Participant counts for the time-versus-nprocs tables, e.g. 2,4,8; those "
                 "tables are made when more than one count is asked for, or with --np-bytes "
                 "(default: 2, 4, 8, ... up to the cores, or the ranks under mpiexec, plus that "
                 "count)")
      ->type_name("LIST");
  app.add_option("--size-np", c.size_np,
                 "Participants of the bandwidth-versus-size tables, 4 in the paper (default: the "
                 "largest --np up to 4)")
      ->type_name("N");
  auto* sizes_opt = app.add_option(
      "--sizes", cl.sizes_text, "Explicit message sizes, e.g. 8,1K,800K (not with -b, -e, -f, -m)");
  sizes_opt->type_name("LIST");
  app.add_option("-b,--min-bytes", cl.min_text, "Smallest message size of the sweep")
      ->capture_default_str()
      ->type_name("SIZE")
      ->excludes(sizes_opt);
  app.add_option("-e,--max-bytes", cl.max_text, "Largest message size of the sweep")
      ->capture_default_str()
      ->type_name("SIZE")
      ->excludes(sizes_opt);
  app.add_option("-f,--step-factor", cl.factor, "Factor between the sizes of the sweep")
      ->capture_default_str()
      ->type_name("N")
      ->check(kNotNegative)
      ->excludes(sizes_opt);
  app.add_option("--np-bytes", cl.np_bytes_text, "Message size of the time-versus-nprocs tables")
      ->capture_default_str()
      ->type_name("SIZE");
}

// Iterations, warm-up, repetitions, the seed and how calls are timed.
void add_measurement_options(CommandLine& cl) {
  CLI::App& app = cl.app;
  Config& c = cl.config;
  app.add_option("-n,--iters", c.measure.iterations,
                 "Timed iterations per repetition (default: by size, see below)")
      ->type_name("N");
  app.add_option("-w,--warmup", c.measure.warmup,
                 "Untimed iterations first (default: by size, see below)")
      ->type_name("N");
  app.add_option("-r,--repetitions", c.measure.repetitions, "Timed repetitions per point")
      ->capture_default_str()
      ->type_name("N");
  app.add_option("--seed", c.measure.seed, "Validation seed (0 or more)")
      ->capture_default_str()
      ->type_name("N")
      ->check(kNotNegative);
  app.add_option("--sync", cl.sync,
                 "How each call is timed: none (calls back to back, one clock around a "
                 "repetition with a barrier before it; IMB -sync 0) or barrier (a barrier before "
                 "each call, only the call timed, as OSU and IMB's default; per-call percentiles "
                 "in the JSON)")
      ->capture_default_str()
      ->type_name("NAME");
  app.add_flag("--percentiles", c.measure.percentiles,
               "Show each point's per-call time percentiles p50, p90, p99 and max (OSU's -z) in "
               "the detailed tables and the JSON; with --sync=none each call is then timed "
               "alone, by a clock read after it");
}

// Where the participants run: --bind, --placement, --pair.
void add_placement_options(CommandLine& cl) {
  CLI::App& app = cl.app;
  Config& c = cl.config;
  app.add_option("--bind", cl.bind,
                 "Core binding of participants, on each node by the participant's index among "
                 "the point's participants on that node: compact, spread or none")
      ->capture_default_str()
      ->type_name("NAME");
  app.add_option("--placement", cl.placement,
                 "Which MPI ranks take part in a point on several nodes: packed (fill rank 0's "
                 "node, then the next) or spread (round-robin over the nodes)")
      ->capture_default_str()
      ->type_name("NAME");
  app.add_option("--pair", c.pair,
                 "Pair of ping-pong and the one-sided ops (put, get, ...): intra (both on rank "
                 "0's node), inter (rank 0 and a rank of another node), both (two rows per size), "
                 "auto (both on several nodes, intra on one)")
      ->capture_default_str()
      ->type_name("NAME");
}

// How the run goes around its points: the limits, stream-bw's window, progress, the launcher and
// the mpi backend's variants.
void add_run_options(CommandLine& cl) {
  CLI::App& app = cl.app;
  Config& c = cl.config;
  app.add_flag(
      "--no-limits", [&config = cl.config](std::int64_t) { config.limits = false; },
      "Skip measuring the machine limits (cache-line round trip, memcpy, aggregate copy)");
  app.add_option_function<std::string>(
         "--placement-probe",
         [&config = cl.config](const std::string& v) { config.placement_probe = v == "on"; },
         "A short cache-line round trip between the point's first two cores just before and "
         "after every point, in results.json's placement field, by which the A/B gate and the "
         "history tell a VM's placement modes apart: on or off")
      ->check(CLI::IsMember({"on", "off"}).description(""))
      ->default_str("on")
      ->type_name("on|off");
  app.add_option("--window", c.window, window_option_help())->capture_default_str()->type_name("N");
  app.add_option("--progress", c.progress,
                 "Progress on stderr with elapsed time and an estimate of what remains: auto (a "
                 "rewritten line on a terminal), always (the line on a terminal, else lines), "
                 "lines (one line per point), never")
      ->capture_default_str()
      ->type_name("MODE");
  app.add_option("--watchdog", c.watchdog_s,
                 "Seconds a rank may go without progress (scaled by the machine's load, plus "
                 "ten times what the next step was measured to take) before it ends the job "
                 "with one line and exit 3: a lost peer or a link that went down; 0: off")
      ->capture_default_str()
      ->type_name("S")
      ->check(kNotNegative);
  app.add_option("--startup-timeout", c.startup_s,
                 "Seconds the ranks of a job comops launches itself may take to start and bring "
                 "MPI up (times the machine's load factor) before comops ends the launch with "
                 "one line naming the hosts that started no rank, exit 3; 0: 30 plus 2 per host "
                 "the launcher names")
      ->capture_default_str()
      ->type_name("S")
      ->check(kNotNegative);
  app.add_option("--mpiexec", c.mpiexec,
                 "Launcher command used when comops is run directly, split at spaces, e.g. "
                 "\"mpiexec -f hosts\"; the built MPI's launcher here: " +
                     std::string(kDefaultMpiexec) +
                     " (default: $COMOPS_MPIEXEC, else the built MPI's launcher)")
      ->type_name("CMD");
  app.add_option("--mpi-variant", cl.variant_texts,
                 "The mpi backend again under other environment settings, labelled mpi-NAME: "
                 "NAME:VAR=VALUE[,VAR=VALUE...], repeatable or ';'-separated; a comma followed by "
                 "VAR= starts the next setting, so values may hold commas, e.g. "
                 "nocma:UCX_TLS=self,sysv,posix. Each variant runs in a job of its own, started "
                 "with the launcher, whose ranks get these variables")
      ->type_name("SPEC")
      ->take_all();
}

// The output directory and files.
void add_output_options(CommandLine& cl) {
  CLI::App& app = cl.app;
  Config& c = cl.config;
  auto* out_opt =
      app.add_option("-o,--output-dir", cl.out_dir,
                     "Write table.txt, results.csv, results.json and gbench.json into this "
                     "directory, created if missing; a directory that holds anything is refused "
                     "without --force. A warning when DIR is an op name such as sum (nccl-tests' "
                     "-o is the reduction operator: comops has --reduce-op and --op)")
          ->type_name("DIR");
  app.add_option("--csv", c.out.csv, "Write result rows as CSV to this file")->type_name("FILE");
  app.add_option("--json", c.out.json, "Write context and result rows as JSON to this file")
      ->type_name("FILE");
  app.add_option("--gbench-json", c.out.gbench_json,
                 "Write Google Benchmark JSON (for its compare.py) to this file")
      ->type_name("FILE");
  app.add_flag("--force", c.force,
               "Write into a non-empty --output-dir, replacing the files comops writes there "
               "(needs --output-dir)")
      ->needs(out_opt);
}

// The applications: --app, and one option per parameter of each (--matmul-n), in the
// Applications group after --app.
void add_app_options(CommandLine& cl) {
  CLI::App& app = cl.app;
  app.add_option("--app", cl.app_names, app_option_help())->type_name("LIST");
  for (const OpDescriptor& d : op_descriptors())
    if (d.app()) {
      AppParamOptions& o = cl.apps.emplace_back();
      o.app = &d;
      o.texts.reserve(d.params.size());  // the options keep pointers to the texts
      for (const AppParam& p : d.params) o.texts.emplace_back(p.defaults);
    }
  for (AppParamOptions& o : cl.apps)
    for (std::size_t i = 0; i < o.app->params.size(); ++i)
      o.options.push_back(app.add_option(app_param_option(*o.app, o.app->params[i]), o.texts[i],
                                         std::string(o.app->params[i].help))
                              ->capture_default_str()
                              ->type_name("LIST")
                              ->group("Applications"));
}

// Hidden, for tests: a corrupted result, an injected failure.
void add_test_options(CommandLine& cl) {
  CLI::App& app = cl.app;
  Config& c = cl.config;
  app.add_flag("--inject-fault", c.measure.inject_fault)->group("");  // hidden, for tests
  app.add_option("--inject-throw", cl.inject_throw)->group("");
}

// Each backend family's own options, noted to refuse them when the family is not selected.
void add_family_options(CommandLine& cl, std::vector<std::unique_ptr<BackendFamily>>& families) {
  CLI::App& app = cl.app;
  for (auto& f : families) {
    const std::size_t before = app.get_options().size();
    f->add_options(app);
    const auto all = app.get_options();
    cl.family_options.emplace_back(
        f->name(),
        std::vector<const CLI::Option*>(all.begin() + static_cast<long>(before), all.end()));
  }
}

// The options OSU's benchmarks taught (osu_latency -m, -i, -x), as aliases of comops' own.
void add_osu_aliases(CommandLine& cl) {
  CLI::App& app = cl.app;
  Config& c = cl.config;
  app.add_option("-m", cl.osu_sizes,
                 "OSU's -m [MIN:]MAX: the sweep from MIN (default 8) to MAX, in powers of two "
                 "(-f sets another factor), as -b MIN -e MAX; K/M/G suffixes (not with --sizes, "
                 "-b, -e)")
      ->type_name("[MIN:]MAX")
      ->excludes(app.get_option("--sizes"))
      ->excludes(app.get_option("--min-bytes"))
      ->excludes(app.get_option("--max-bytes"));
  app.add_option("-i", c.measure.iterations, "OSU's -i ITERS: -n/--iters (not with it)")
      ->type_name("ITERS")
      ->excludes(app.get_option("--iters"));
  app.add_option("-x", c.measure.warmup, "OSU's -x WARMUP: -w/--warmup (not with it)")
      ->type_name("WARMUP")
      ->excludes(app.get_option("--warmup"));
}

// The --help footer: the default run names every backend family, in --backend=all's order.
std::string footer(const std::vector<std::unique_ptr<BackendFamily>>& families) {
  std::string names;
  for (const auto& f : families) names += (names.empty() ? "" : ", ") + f->name();
  return "The default run: every backend (" + names + ")" + kFooterAfterBackends;
}

// The --help groups; the backends' own options name theirs (shm backend, swcc backend).
void assign_groups(CLI::App& app) {
  app.get_help_ptr()->group(kGeneral);
  app.get_version_ptr()->group(kGeneral);
  for (const auto& [group, names] : kGroups)
    for (const char* name : names) app.get_option(name)->group(group);
}

}  // namespace

CommandLine::CommandLine()
    : app{"comops: message passing versus shared memory, measured the same way.\n"
          "Runs the COMOPS operations on the chosen backends and prints bandwidth-versus-size and "
          "time-versus-nprocs tables.",
          "comops"} {
  app.formatter(std::make_shared<HelpFormatter>());
  app.set_version_flag("--version", "comops 0.1.0");
}

// Defined in this order: each --help group lists its options so, and CLI11 checks their
// requirements (-m excludes --sizes, ...) so, which decides the message of a clash.
void define_options(CommandLine& cl, std::vector<std::unique_ptr<BackendFamily>>& families) {
  add_selection_options(cl, families);
  add_sweep_options(cl);
  add_measurement_options(cl);
  add_placement_options(cl);
  add_run_options(cl);
  add_output_options(cl);
  add_app_options(cl);
  add_test_options(cl);
  add_family_options(cl, families);
  add_osu_aliases(cl);
  assign_groups(cl.app);
  cl.app.footer(footer(families));
}

}  // namespace comops
