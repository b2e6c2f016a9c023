// The comops command line turned into a Config: CLI11 parses it (harness/cli/cli_options.cpp
// defines the options), then each value is checked and translated, in a fixed order (the first
// problem is the one reported).
#include "harness/cli/cli.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>

#include "harness/cli/cli_options.hpp"
#include "harness/launch/launcher.hpp"
#include "harness/ops/app_options.hpp"
#include "harness/ops/op_queries.hpp"
#include "harness/ops/op_selection.hpp"
#include "harness/util/comma_list.hpp"
#include "harness/util/sizes.hpp"

namespace comops {
namespace {

constexpr int kMaxWindow = 1 << 20;  // --window: W MPI requests and W x size bytes per side

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

std::vector<std::string> split_list(const std::vector<std::string>& items) {
  std::vector<std::string> out;
  for (const auto& item : items)
    for (auto& word : comma_items(item)) out.push_back(std::move(word));
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

// CLI11's parse: --help and --version end the run here, and CLI11's own refusals.
void parse_argv(CLI::App& app, int argc, char** argv) {
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
}

// The backends; the options of a backend family --backend does not select, and --mpi-variant
// without mpi, are refused.
void select_backends(CommandLine& cl, const std::vector<std::unique_ptr<BackendFamily>>& families) {
  Config& c = cl.config;
  c.backends = resolve_backends({cl.backend_names}, families);
  for (const auto& [family, options] : cl.family_options)
    if (std::find(c.backends.begin(), c.backends.end(), family) == c.backends.end())
      for (const CLI::Option* o : options)
        if (o->count() > 0)
          throw UsageError(
              fmt::format("{} applies to the {} backend, which --backend does not "
                          "select",
                          o->get_name(), family));
  c.mpi_variants = parse_mpi_variants(cl.variant_texts);
  if (!c.mpi_variants.empty() &&
      std::find(c.backends.begin(), c.backends.end(), "mpi") == c.backends.end())
    throw UsageError("--mpi-variant applies to the mpi backend, which --backend does not select");
}

// The ops and the applications, with each selected application's points; an application's
// options are refused when --app does not select it.
void select_ops_and_apps(CommandLine& cl) {
  CLI::App& app = cl.app;
  Config& c = cl.config;
  // --app alone runs only the applications; with --op, the ops first.
  std::vector<OpKind> apps;
  if (app.count("--app")) apps = select_apps(split_list({cl.app_names}));
  if (apps.empty() || app.count("--op"))
    c.ops = select_ops(split_list({cl.op_names}), split_list({cl.reduce_ops}));
  for (const AppParamOptions& o : cl.apps) {
    const bool selected = std::find(apps.begin(), apps.end(), o.app->kind) != apps.end();
    for (const CLI::Option* opt : o.options)
      if (!selected && opt->count() > 0)
        throw UsageError(fmt::format("{} applies to the {} app, which --app does not select",
                                     opt->get_name(), o.app->name));
    if (!selected) continue;
    c.ops.push_back(o.app->kind);
    c.app_points[o.app->kind] = expand_app_params(*o.app, o.texts);
  }
}

// The participant counts, the sizes of the sweep (--sizes, or -b, -e, -f and -m) and --np-bytes.
void derive_sizes(CommandLine& cl) {
  CLI::App& app = cl.app;
  Config& c = cl.config;
  if (!cl.np_text.empty()) {
    c.np_list = parse_np_list({cl.np_text});
    c.np_given = true;
  }
  if (c.size_np < 0) throw UsageError("--size-np must be at least 1");
  if (!cl.sizes_text.empty()) {
    for (const auto& s : split_list({cl.sizes_text})) c.sizes.push_back(parse_size(s));
    if (c.sizes.empty()) throw UsageError("--sizes names no size");
    std::sort(c.sizes.begin(), c.sizes.end());
    c.sizes.erase(std::unique(c.sizes.begin(), c.sizes.end()), c.sizes.end());
  } else {
    if (!cl.osu_sizes.empty()) apply_osu_sizes(cl.osu_sizes, cl.min_text, cl.max_text);
    c.sizes = geometric_sizes(parse_size(cl.min_text), parse_size(cl.max_text), cl.factor);
  }
  c.np_bytes = parse_size(cl.np_bytes_text);
  c.np_bytes_given = app.count("--np-bytes") > 0;
  check_element_multiple(c.sizes);
  check_element_multiple({c.np_bytes});
}

// Iterations, warm-up, repetitions and the window within their bounds.
void check_counts(CommandLine& cl) {
  CLI::App& app = cl.app;
  Config& c = cl.config;
  for (const char* name : {"--iters", "-i"})
    if (app.count(name) && c.measure.iterations < 1)
      throw UsageError(fmt::format("{} must be at least 1", name));
  for (const char* name : {"--warmup", "-x"})
    if (app.count(name) && c.measure.warmup < 0)
      throw UsageError(fmt::format("{} must be at least 0", name));
  if (c.measure.repetitions < 1) throw UsageError("--repetitions must be at least 1");
  if (c.window < 1 || c.window > kMaxWindow)
    throw UsageError(fmt::format("--window must be 1 to {}, not {}", kMaxWindow, c.window));
}

// The named modes (--sync, --bind, --placement, --pair, --progress); --pair and --window are
// refused without an op they apply to.
void parse_modes(CommandLine& cl) {
  CLI::App& app = cl.app;
  Config& c = cl.config;
  if (const auto s = parse_sync(cl.sync))
    c.measure.sync = *s;
  else
    throw UsageError(fmt::format("unknown --sync '{}' (expected none or barrier)", cl.sync));
  c.bind = parse_bind_policy(cl.bind);
  c.placement = parse_placement(cl.placement);
  if (c.pair != "auto" && c.pair != "intra" && c.pair != "inter" && c.pair != "both")
    throw UsageError(
        fmt::format("unknown --pair '{}' (expected intra, inter, both or auto)", c.pair));
  if (app.count("--pair") &&
      std::none_of(c.ops.begin(), c.ops.end(), [](OpKind k) { return op_is_pair(k); }))
    throw UsageError("--pair applies to " + pair_op_names() + ", which --op does not select");
  if (app.count("--window") && std::none_of(c.ops.begin(), c.ops.end(),
                                            [](OpKind k) { return op_descriptor(k).windowed(); }))
    throw UsageError("--window applies to " + windowed_op_names() + ", which --op does not select");
  if (c.progress != "auto" && c.progress != "always" && c.progress != "lines" &&
      c.progress != "never")
    throw UsageError(
        fmt::format("unknown --progress '{}' (expected auto, always, lines or never)", c.progress));
}

// --output-dir: the files into it, unless others are named, and a warning when it is an op name.
void derive_outputs(CommandLine& cl) {
  Config& c = cl.config;
  if (!cl.out_dir.empty()) {
    const std::string& dir = cl.out_dir;
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
}

// --inject-throw PHASE[@POINT] (hidden, for tests).
void parse_inject_throw(CommandLine& cl) {
  Config& c = cl.config;
  const std::string& inject_throw = cl.inject_throw;
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
}

}  // namespace

Config parse_command_line(int argc, char** argv,
                          std::vector<std::unique_ptr<BackendFamily>>& families) {
  CommandLine cl;
  define_options(cl, families);
  parse_argv(cl.app, argc, argv);
  Config& c = cl.config;
  c.command_line = join_argv(argc, argv);
  c.arguments.assign(argv + 1, argv + argc);
  select_backends(cl, families);
  select_ops_and_apps(cl);
  derive_sizes(cl);
  check_counts(cl);
  parse_modes(cl);
  derive_outputs(cl);
  parse_inject_throw(cl);
  for (auto& f : families)
    if (std::find(c.backends.begin(), c.backends.end(), f->name()) != c.backends.end())
      f->validate();
  return std::move(c);
}

}  // namespace comops
