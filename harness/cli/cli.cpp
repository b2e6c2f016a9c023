// CLI11 definition of every comops option and the translation of their values into a Config.
#include "harness/cli/cli.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>

#include "harness/launch/launcher.hpp"
#include "harness/ops/app_options.hpp"
#include "harness/ops/op_queries.hpp"
#include "harness/ops/op_selection.hpp"
#include "harness/util/help_formatter.hpp"
#include "harness/util/sizes.hpp"

namespace comops {
namespace {

// Paragraphs, wrapped by HelpFormatter.
constexpr const char* kFooter =
    R"(The default run: every backend (mpi; shm with the staged and direct schemes; swcc with 64-byte
blocks) and every op (reduce = max), at 8 B to 8 MiB in powers of two with --size-np participants;
then, when --np comes to more than one count (2, 4, 8, ... up to the cores), each op's
time-versus-nprocs table at 800K (--np-bytes); the barrier has only that table.

Definitions: ping-pong runs between participants 0 and 1 (others idle); RTT is the round trip,
latency = RTT/2, one-way bandwidth = 2 x size / RTT, COMOPS ping-pong rate = size / RTT;
pingpong-nb is the same round trip made with MPI_Irecv, MPI_Isend and MPI_Waitall. stream-bw is
no ping-pong: participant 0 sends a window of --window messages back to back, participant 1 acks
the window (osu_bw); window_us is the time per window, stream_GBps = W x size / window_us.
Collectives: each participant averages its back-to-back iterations; the table shows min, avg and
max over participants (max is the headline), median over repetitions. GB = 1e9 bytes; sizes accept
K, M, G = 1024. Gather and scatter sizes are per participant.

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
      "--window"}},
    {"Placement", {"--bind", "--placement", "--pair", "--mpiexec"}},
    {"mpi backend", {"--mpi-variant"}},
    {"Output", {"--output-dir", "--force", "--csv", "--json", "--gbench-json", "--progress"}},
    {"Applications", {"--app"}},
    {"OSU aliases", {"-m", "-i", "-x"}},
};

// nccl-tests' reduction operators and comops' op names: what a user of those suites may give
// -o, where comops takes the output directory.
bool op_like(const std::string& word) {
  for (const char* name : {"sum", "prod", "min", "max", "avg", "mulsum"})
    if (word == name) return true;
  const auto ops = op_words();
  return std::find(ops.begin(), ops.end(), word) != ops.end();
}

// OSU's -m [MIN:]MAX into the texts of -b (min) and -e (max); a missing bound keeps its default.
void apply_osu_sizes(const std::string& text, std::string& min_text, std::string& max_text) {
  const auto colon = text.find(':');
  if (colon == std::string::npos) {
    max_text = text;
    return;
  }
  if (text.find(':', colon + 1) != std::string::npos || text.size() == 1)
    throw UsageError(fmt::format("invalid -m '{}' (expected [MIN:]MAX, e.g. 8:1M)", text));
  if (colon > 0) min_text = text.substr(0, colon);
  if (colon + 1 < text.size()) max_text = text.substr(colon + 1);
}

// For unsigned options: CLI11 would wrap "-1" around to the largest value.
const CLI::Validator kNotNegative(
    [](const std::string& value) {
      const auto first = value.find_first_not_of(" \t");
      return first != std::string::npos && value[first] == '-'
                 ? fmt::format("must be 0 or more, not {}", value)
                 : std::string();
    },
    "");

std::vector<std::string> split_list(const std::vector<std::string>& items) {
  std::vector<std::string> out;
  for (const auto& item : items) {
    std::size_t start = 0;
    while (start <= item.size()) {
      const auto comma = item.find(',', start);
      const auto end = comma == std::string::npos ? item.size() : comma;
      if (end > start) out.push_back(item.substr(start, end - start));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  return out;
}

std::vector<std::string> resolve_backends(const std::vector<std::string>& names,
                                          const std::vector<std::unique_ptr<BackendFamily>>& fams) {
  std::vector<std::string> known;
  for (const auto& f : fams) known.push_back(f->name());
  std::vector<std::string> out;
  for (const auto& n : split_list(names)) {
    if (n == "all") {
      for (const auto& k : known)
        if (std::find(out.begin(), out.end(), k) == out.end()) out.push_back(k);
      continue;
    }
    if (std::find(known.begin(), known.end(), n) == known.end())
      throw UsageError(
          fmt::format("unknown backend '{}' (available: {}, all)", n, fmt::join(known, ", ")));
    if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  }
  if (out.empty()) throw UsageError("--backend names no backend");
  return out;
}

std::vector<int> parse_np_list(const std::vector<std::string>& items) {
  std::vector<int> out;
  for (const auto& s : split_list(items)) {
    std::size_t used = 0;
    int v = 0;
    try {
      v = std::stoi(s, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != s.size() || used == 0) throw UsageError(fmt::format("invalid --np value '{}'", s));
    if (v < 1) throw UsageError(fmt::format("--np value {} must be at least 1", v));
    out.push_back(v);
  }
  if (out.empty()) throw UsageError("--np names no participant count");
  return out;
}

std::string join_argv(int argc, char** argv) {
  std::string s;
  for (int i = 0; i < argc; ++i) s += (i ? " " : "") + std::string(argv[i]);
  return s;
}

}  // namespace

Config parse_command_line(int argc, char** argv,
                          std::vector<std::unique_ptr<BackendFamily>>& families) {
  Config c;
  CLI::App app{
      "comops: message passing versus shared memory, measured the same way.\n"
      "Runs the COMOPS operations on the chosen backends and prints bandwidth-versus-size and "
      "time-versus-nprocs tables.",
      "comops"};
  app.formatter(std::make_shared<HelpFormatter>());
  app.footer(kFooter);
  app.set_version_flag("--version", "comops 0.1.0");

  std::string backend_names = "all", op_names = "comops", reduce_ops = "max", np_text, sizes_text;
  std::string min_text = "8", max_text = "8M", np_bytes_text = "800K", bind = "compact";
  std::size_t factor = 2;
  std::string backend_help = "Backends to run, comma-separated, or all:";
  for (const auto& f : families) backend_help += "\n  " + f->name() + ": " + f->description();
  app.add_option("--backend", backend_names, backend_help)
      ->capture_default_str()
      ->type_name("LIST");
  app.add_option("--op", op_names, op_option_help())->capture_default_str()->type_name("LIST");
  app.add_option("--reduce-op", reduce_ops, reduce_op_option_help())
      ->capture_default_str()
      ->type_name("LIST");
  app.add_option("--np", np_text,
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
      "--sizes", sizes_text, "Explicit message sizes, e.g. 8,1K,800K (not with -b, -e, -f, -m)");
  sizes_opt->type_name("LIST");
  auto* min_opt = app.add_option("-b,--min-bytes", min_text, "Smallest message size of the sweep")
                      ->capture_default_str()
                      ->type_name("SIZE")
                      ->excludes(sizes_opt);
  auto* max_opt = app.add_option("-e,--max-bytes", max_text, "Largest message size of the sweep")
                      ->capture_default_str()
                      ->type_name("SIZE")
                      ->excludes(sizes_opt);
  app.add_option("-f,--step-factor", factor, "Factor between the sizes of the sweep")
      ->capture_default_str()
      ->type_name("N")
      ->check(kNotNegative)
      ->excludes(sizes_opt);
  app.add_option("--np-bytes", np_bytes_text, "Message size of the time-versus-nprocs tables")
      ->capture_default_str()
      ->type_name("SIZE");
  auto* iters_opt = app.add_option("-n,--iters", c.measure.iterations,
                                   "Timed iterations per repetition (default: by size, see below)")
                        ->type_name("N");
  auto* warmup_opt = app.add_option("-w,--warmup", c.measure.warmup,
                                    "Untimed iterations first (default: by size, see below)")
                         ->type_name("N");
  app.add_option("-r,--repetitions", c.measure.repetitions, "Timed repetitions per point")
      ->capture_default_str()
      ->type_name("N");
  app.add_option("--seed", c.measure.seed, "Validation seed (0 or more)")
      ->capture_default_str()
      ->type_name("N")
      ->check(kNotNegative);
  std::string sync = "none";
  app.add_option("--sync", sync,
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
  app.add_option("--bind", bind,
                 "Core binding of participants, on each node by the participant's index among "
                 "the point's participants on that node: compact, spread or none")
      ->capture_default_str()
      ->type_name("NAME");
  std::string placement = "packed";
  app.add_option("--placement", placement,
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
  app.add_flag(
      "--no-limits", [&](std::int64_t) { c.limits = false; },
      "Skip measuring the machine limits (cache-line round trip, memcpy, aggregate copy)");
  app.add_option("--window", c.window,
                 "stream-bw: messages in flight per window, 1 to 1048576 (osu_bw's window); "
                 "participant 0 sends them back to back, participant 1 acks the window; each "
                 "side's buffer holds W x size")
      ->capture_default_str()
      ->type_name("N");
  app.add_option("--progress", c.progress,
                 "Progress on stderr with elapsed time and an estimate of what remains: auto (a "
                 "rewritten line on a terminal), always (the line on a terminal, else lines), "
                 "lines (one line per point), never")
      ->capture_default_str()
      ->type_name("MODE");
  app.add_option("--mpiexec", c.mpiexec,
                 "Launcher command used when comops is run directly, split at spaces, e.g. "
                 "\"mpiexec -f hosts\"; the built MPI's launcher here: " +
                     std::string(kDefaultMpiexec) +
                     " (default: $COMOPS_MPIEXEC, else the built MPI's launcher)")
      ->type_name("CMD");
  std::vector<std::string> variant_texts;
  app.add_option("--mpi-variant", variant_texts,
                 "The mpi backend again under other environment settings, labelled mpi-NAME: "
                 "NAME:VAR=VALUE[,VAR=VALUE...], repeatable or ';'-separated; a comma followed by "
                 "VAR= starts the next setting, so values may hold commas, e.g. "
                 "nocma:UCX_TLS=self,sysv,posix. Each variant runs in a job of its own, started "
                 "with the launcher, whose ranks get these variables")
      ->type_name("SPEC")
      ->take_all();
  std::string out_dir;
  auto* out_opt =
      app.add_option("-o,--output-dir", out_dir,
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
  // The applications: --app, and one option per parameter of each (--matmul-n), in the
  // Applications group after --app.
  std::string app_names;
  app.add_option("--app", app_names, app_option_help())->type_name("LIST");
  struct AppOption {
    const OpDescriptor* app;
    std::vector<std::string> texts;           // per parameter: its list as given, or its default
    std::vector<const CLI::Option*> options;  // per parameter
  };
  std::vector<AppOption> app_options;
  for (const OpDescriptor& d : op_descriptors())
    if (d.app()) {
      AppOption& o = app_options.emplace_back();
      o.app = &d;
      o.texts.reserve(d.params.size());  // the options keep pointers to the texts
      for (const AppParam& p : d.params) o.texts.emplace_back(p.defaults);
    }
  for (AppOption& o : app_options)
    for (std::size_t i = 0; i < o.app->params.size(); ++i)
      o.options.push_back(app.add_option(app_param_option(*o.app, o.app->params[i]), o.texts[i],
                                         std::string(o.app->params[i].help))
                              ->capture_default_str()
                              ->type_name("LIST")
                              ->group("Applications"));
  app.add_flag("--inject-fault", c.measure.inject_fault)->group("");  // hidden, for tests
  std::string inject_throw;  // hidden, for tests: PHASE[@POINT]
  app.add_option("--inject-throw", inject_throw)->group("");

  // Which options each backend family added, to refuse them when the family is not selected.
  std::vector<std::pair<std::string, std::vector<const CLI::Option*>>> family_options;
  for (auto& f : families) {
    const std::size_t before = app.get_options().size();
    f->add_options(app);
    const auto all = app.get_options();
    family_options.emplace_back(f->name(), std::vector<const CLI::Option*>(
                                               all.begin() + static_cast<long>(before), all.end()));
  }

  // The options OSU's benchmarks taught (osu_latency -m, -i, -x), as aliases of comops' own.
  std::string osu_sizes;
  app.add_option("-m", osu_sizes,
                 "OSU's -m [MIN:]MAX: the sweep from MIN (default 8) to MAX, in powers of two "
                 "(-f sets another factor), as -b MIN -e MAX; K/M/G suffixes (not with --sizes, "
                 "-b, -e)")
      ->type_name("[MIN:]MAX")
      ->excludes(sizes_opt)
      ->excludes(min_opt)
      ->excludes(max_opt);
  app.add_option("-i", c.measure.iterations, "OSU's -i ITERS: -n/--iters (not with it)")
      ->type_name("ITERS")
      ->excludes(iters_opt);
  app.add_option("-x", c.measure.warmup, "OSU's -x WARMUP: -w/--warmup (not with it)")
      ->type_name("WARMUP")
      ->excludes(warmup_opt);

  // The --help groups; the backends' own options name theirs (shm backend, swcc backend).
  app.get_help_ptr()->group(kGeneral);
  app.get_version_ptr()->group(kGeneral);
  for (const auto& [group, names] : kGroups)
    for (const char* name : names) app.get_option(name)->group(group);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    throw EarlyExit{app.help()};
  } catch (const CLI::CallForAllHelp&) {
    throw EarlyExit{app.help("", CLI::AppFormatMode::All)};
  } catch (const CLI::Success& e) {  // --version
    throw EarlyExit{std::string(e.what()) + "\n"};
  } catch (const CLI::ParseError& e) {
    throw UsageError(e.what());
  }

  // An option given an empty value ("--sizes=") is a mistake, not a request for the default.
  for (const CLI::Option* o : app.get_options())
    for (const std::string& value : o->results())
      if (value.empty() && o->get_expected_min() > 0)
        throw UsageError(fmt::format("{} needs a value, not an empty one", o->get_name()));

  c.command_line = join_argv(argc, argv);
  c.arguments.assign(argv + 1, argv + argc);
  c.backends = resolve_backends({backend_names}, families);
  for (const auto& [family, options] : family_options)
    if (std::find(c.backends.begin(), c.backends.end(), family) == c.backends.end())
      for (const CLI::Option* o : options)
        if (o->count() > 0)
          throw UsageError(
              fmt::format("{} applies to the {} backend, which --backend does not "
                          "select",
                          o->get_name(), family));
  c.mpi_variants = parse_mpi_variants(variant_texts);
  if (!c.mpi_variants.empty() &&
      std::find(c.backends.begin(), c.backends.end(), "mpi") == c.backends.end())
    throw UsageError("--mpi-variant applies to the mpi backend, which --backend does not select");
  // --app alone runs only the applications; with --op, the ops first.
  std::vector<OpKind> apps;
  if (app.count("--app")) apps = select_apps(split_list({app_names}));
  if (apps.empty() || app.count("--op"))
    c.ops = select_ops(split_list({op_names}), split_list({reduce_ops}));
  for (const AppOption& o : app_options) {
    const bool selected = std::find(apps.begin(), apps.end(), o.app->kind) != apps.end();
    for (const CLI::Option* opt : o.options)
      if (!selected && opt->count() > 0)
        throw UsageError(fmt::format("{} applies to the {} app, which --app does not select",
                                     opt->get_name(), o.app->name));
    if (!selected) continue;
    c.ops.push_back(o.app->kind);
    c.app_points[o.app->kind] = expand_app_params(*o.app, o.texts);
  }
  if (!np_text.empty()) {
    c.np_list = parse_np_list({np_text});
    c.np_given = true;
  }
  if (c.size_np < 0) throw UsageError("--size-np must be at least 1");
  if (!sizes_text.empty()) {
    for (const auto& s : split_list({sizes_text})) c.sizes.push_back(parse_size(s));
    if (c.sizes.empty()) throw UsageError("--sizes names no size");
    std::sort(c.sizes.begin(), c.sizes.end());
    c.sizes.erase(std::unique(c.sizes.begin(), c.sizes.end()), c.sizes.end());
  } else {
    if (!osu_sizes.empty()) apply_osu_sizes(osu_sizes, min_text, max_text);
    c.sizes = geometric_sizes(parse_size(min_text), parse_size(max_text), factor);
  }
  c.np_bytes = parse_size(np_bytes_text);
  c.np_bytes_given = app.count("--np-bytes") > 0;
  check_element_multiple(c.sizes);
  check_element_multiple({c.np_bytes});
  for (const char* name : {"--iters", "-i"})
    if (app.count(name) && c.measure.iterations < 1)
      throw UsageError(fmt::format("{} must be at least 1", name));
  for (const char* name : {"--warmup", "-x"})
    if (app.count(name) && c.measure.warmup < 0)
      throw UsageError(fmt::format("{} must be at least 0", name));
  if (c.measure.repetitions < 1) throw UsageError("--repetitions must be at least 1");
  if (c.window < 1 || c.window > kMaxWindow)
    throw UsageError(fmt::format("--window must be 1 to {}, not {}", kMaxWindow, c.window));
  if (const auto s = parse_sync(sync))
    c.measure.sync = *s;
  else
    throw UsageError(fmt::format("unknown --sync '{}' (expected none or barrier)", sync));
  c.bind = parse_bind_policy(bind);
  c.placement = parse_placement(placement);
  if (c.pair != "auto" && c.pair != "intra" && c.pair != "inter" && c.pair != "both")
    throw UsageError(
        fmt::format("unknown --pair '{}' (expected intra, inter, both or auto)", c.pair));
  if (app.count("--pair") &&
      std::none_of(c.ops.begin(), c.ops.end(), [](OpKind k) { return op_is_pair(k); }))
    throw UsageError(
        "--pair applies to pingpong, pingpong-nb, stream-bw and the one-sided ops, which --op "
        "does not select");
  if (app.count("--window") && std::none_of(c.ops.begin(), c.ops.end(),
                                            [](OpKind k) { return op_descriptor(k).windowed(); }))
    throw UsageError("--window applies to stream-bw, which --op does not select");
  if (c.progress != "auto" && c.progress != "always" && c.progress != "lines" &&
      c.progress != "never")
    throw UsageError(
        fmt::format("unknown --progress '{}' (expected auto, always, lines or never)", c.progress));
  if (!out_dir.empty()) {
    const std::string& dir = out_dir;
    c.out.dir = dir;
    c.out.table = dir + "/table.txt";
    if (c.out.csv.empty()) c.out.csv = dir + "/results.csv";
    if (c.out.json.empty()) c.out.json = dir + "/results.json";
    if (c.out.gbench_json.empty()) c.out.gbench_json = dir + "/gbench.json";
    if (op_like(dir))
      c.warnings.push_back(fmt::format(
          "-o {0} writes the results into the directory {0}/ (-o is --output-dir in comops; "
          "a reduction operator is --reduce-op, an operation --op)",
          dir));
  }
  if (!inject_throw.empty()) {
    const auto at = inject_throw.find('@');
    const auto phase = parse_phase(inject_throw.substr(0, at));
    std::size_t used = 0;
    try {
      if (at != std::string::npos) c.inject_point = std::stoul(inject_throw.substr(at + 1), &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (!phase || (at != std::string::npos && used != inject_throw.size() - at - 1))
      throw UsageError(fmt::format(
          "invalid --inject-throw '{}' (expected setup, warmup, timed or validation, then "
          "optionally @POINT)",
          inject_throw));
    c.measure.inject_throw = *phase;
  }
  for (auto& f : families)
    if (std::find(c.backends.begin(), c.backends.end(), f->name()) != c.backends.end())
      f->validate();
  return c;
}

}  // namespace comops
