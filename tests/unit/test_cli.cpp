// Unit tests of the command line (harness/cli/cli.hpp) and of finalize_config
// (harness/plan/config.hpp): defaults, option translation, and the exact one-line messages for bad
// input.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "comops/op.hpp"
#include "golden_ops.hpp"
#include "harness/cli/cli.hpp"
#include "harness/ops/op_queries.hpp"
#include "harness/plan/config.hpp"
#include "harness/runtime/pinning.hpp"
#include "harness/util/help_formatter.hpp"
#include "parse_command.hpp"

namespace comops {
namespace {

using test::parse;
using test::usage_error;

// Expects parse(args) to throw a one-line UsageError containing `substring`.
void expect_usage_error(const std::vector<std::string>& args, const std::string& substring) {
  std::string joined;
  for (const auto& a : args) joined += " " + a;
  const std::string msg = usage_error(args);
  EXPECT_NE(msg.find(substring), std::string::npos) << "comops" << joined << "\nmessage: " << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos) << "not one line: " << msg;
}

std::vector<std::string> family_names() {
  std::vector<std::string> names;
  for (const auto& f : backend_families()) names.push_back(f->name());
  return names;
}

TEST(Cli, Defaults) {
  const Config c = parse({});
  EXPECT_EQ(c.backends, family_names());
  ASSERT_FALSE(c.backends.empty());
  EXPECT_EQ(c.backends.front(), "mpi");
  EXPECT_EQ(c.ops, (std::vector<OpKind>{OpKind::kPingpong, OpKind::kBroadcast, OpKind::kReduceMax,
                                        OpKind::kGather, OpKind::kScatter, OpKind::kBarrier}));
  ASSERT_EQ(c.sizes.size(), 21u);
  for (std::size_t i = 0; i < c.sizes.size(); ++i) EXPECT_EQ(c.sizes[i], std::size_t{8} << i);
  EXPECT_EQ(c.sizes.back(), 8388608u);
  EXPECT_EQ(c.np_bytes, 819200u);
  EXPECT_TRUE(c.np_list.empty());
  EXPECT_FALSE(c.np_given);
  EXPECT_EQ(c.size_np, 0);
  EXPECT_EQ(c.measure.repetitions, 5);
  EXPECT_EQ(c.measure.iterations, 0);
  EXPECT_EQ(c.measure.warmup, -1);
  EXPECT_EQ(c.measure.seed, 1u);
  EXPECT_FALSE(c.measure.inject_fault);
  EXPECT_EQ(c.measure.sync, Sync::kNone);
  EXPECT_FALSE(c.measure.percentiles);
  EXPECT_FALSE(samples_calls(c.measure));
  EXPECT_EQ(c.bind, BindPolicy::kCompact);
  EXPECT_TRUE(c.limits);
  EXPECT_EQ(c.progress, "auto");
  EXPECT_EQ(c.mpiexec, "");
  EXPECT_EQ(c.out.dir, "");
  EXPECT_EQ(c.out.csv, "");
  EXPECT_EQ(c.out.json, "");
  EXPECT_EQ(c.out.gbench_json, "");
  EXPECT_EQ(c.out.table, "");
  EXPECT_EQ(c.command_line, "comops");
}

TEST(Cli, ReduceExpandsByReduceOp) {
  EXPECT_EQ(parse({"--op=reduce", "--reduce-op=max,sum"}).ops,
            (std::vector<OpKind>{OpKind::kReduceMax, OpKind::kReduceSum}));
  EXPECT_EQ(parse({"--op=reduce", "--reduce-op=sum"}).ops,
            (std::vector<OpKind>{OpKind::kReduceSum}));
  EXPECT_EQ(parse({"--op=reduce"}).ops, (std::vector<OpKind>{OpKind::kReduceMax}));
  std::vector<std::string> all_names;  // --op=all with both reductions: every op, in order
  for (OpKind k : parse({"--op=all", "--reduce-op=sum,max"}).ops)
    all_names.emplace_back(op_name(k));
  EXPECT_EQ(all_names, test::golden_names());
}

TEST(Cli, OpsComeInCanonicalOrderWithoutDuplicates) {
  EXPECT_EQ(parse({"--op=barrier,pingpong,barrier,reduce-sum"}).ops,
            (std::vector<OpKind>{OpKind::kPingpong, OpKind::kReduceSum, OpKind::kBarrier}));
}

TEST(Cli, Sizes) {
  EXPECT_EQ(parse({"--sizes=8,1K,800K"}).sizes, (std::vector<std::size_t>{8, 1024, 819200}));
  EXPECT_EQ(parse({"--sizes=1K,8,1K"}).sizes, (std::vector<std::size_t>{8, 1024}));
  EXPECT_EQ(parse({"-b", "64", "-e", "1K", "-f", "4"}).sizes,
            (std::vector<std::size_t>{64, 256, 1024}));
  EXPECT_EQ(parse({"--min-bytes=1K", "--max-bytes=4K"}).sizes,
            (std::vector<std::size_t>{1024, 2048, 4096}));
  EXPECT_EQ(parse({"--np-bytes=1M"}).np_bytes, 1u << 20);
}

TEST(Cli, NpAndOtherValues) {
  const Config c = parse({"--np=2,4", "--np-bytes", "1K", "--size-np=2", "-n", "100", "-w", "3",
                          "-r", "7", "--seed=9", "--bind=spread", "--no-limits", "--progress=never",
                          "--mpiexec=/opt/mpiexec", "--backend=mpi"});
  EXPECT_EQ(c.np_list, (std::vector<int>{2, 4}));
  EXPECT_TRUE(c.np_given);
  EXPECT_EQ(c.np_bytes, 1024u);
  EXPECT_EQ(c.size_np, 2);
  EXPECT_EQ(c.measure.iterations, 100);
  EXPECT_EQ(c.measure.warmup, 3);
  EXPECT_EQ(c.measure.repetitions, 7);
  EXPECT_EQ(c.measure.seed, 9u);
  EXPECT_EQ(c.bind, BindPolicy::kSpread);
  EXPECT_FALSE(c.limits);
  EXPECT_EQ(c.progress, "never");
  EXPECT_EQ(c.mpiexec, "/opt/mpiexec");
  EXPECT_EQ(c.backends, (std::vector<std::string>{"mpi"}));
  EXPECT_EQ(parse({"--bind=none"}).bind, BindPolicy::kNone);
  EXPECT_TRUE(parse({"--inject-fault"}).measure.inject_fault);
  EXPECT_EQ(parse({"--backend=mpi,all,mpi"}).backends, family_names());
}

// --sync chooses how each call is timed; --percentiles times each call alone under none too.
TEST(Cli, SyncAndPercentiles) {
  const Config barrier = parse({"--sync=barrier"});
  EXPECT_EQ(barrier.measure.sync, Sync::kBarrier);
  EXPECT_FALSE(barrier.measure.percentiles);
  EXPECT_TRUE(samples_calls(barrier.measure));  // a barrier mode point always has percentiles
  EXPECT_EQ(parse({"--sync", "none"}).measure.sync, Sync::kNone);
  const Config none_sampled = parse({"--percentiles"});
  EXPECT_EQ(none_sampled.measure.sync, Sync::kNone);
  EXPECT_TRUE(none_sampled.measure.percentiles);
  EXPECT_TRUE(samples_calls(none_sampled.measure));
  const Config both = parse({"--sync=barrier", "--percentiles"});
  EXPECT_EQ(both.measure.sync, Sync::kBarrier);
  EXPECT_TRUE(both.measure.percentiles);
  EXPECT_EQ(sync_name(Sync::kNone), std::string("none"));
  EXPECT_EQ(sync_name(Sync::kBarrier), std::string("barrier"));
  EXPECT_EQ(sync_description(Sync::kNone),
            "sync none: calls back to back, one barrier per repetition");
  EXPECT_EQ(sync_description(Sync::kBarrier),
            "sync barrier: a barrier before each call, only the call timed (OSU)");
}

// --window: stream-bw's messages per window, osu_bw's 64 by default; into every stream-bw point's
// Args and nowhere else.
TEST(Cli, Window) {
  EXPECT_EQ(parse({}).window, 64);
  EXPECT_EQ(parse({"--op=stream-bw", "--window=8"}).window, 8);
  EXPECT_EQ(parse({"--op=all", "--window", "1"}).window, 1);
  EXPECT_EQ(parse({"--op=stream-bw", "--window=1048576"}).window, 1 << 20);
}

TEST(CliErrors, PairWithoutAPairOp) {
  std::string pair;  // the golden list's ops between participants 0 and 1, then the one-sided
  for (const test::GoldenOp& g : test::kGoldenOps)
    if (g.timing == Timing::kRoundTrip || g.timing == Timing::kWindow)
      pair += (pair.empty() ? "" : ", ") + std::string(g.name);
  EXPECT_EQ(pair.rfind("pingpong, pingpong-nb, stream-bw", 0), 0u) << pair;
  EXPECT_EQ(usage_error({"--op=broadcast", "--pair=intra"}),
            "--pair applies to " + pair + " and the one-sided ops, which --op does not select");
}

TEST(CliErrors, BadWindow) {
  expect_usage_error({"--op=stream-bw", "--window=0"}, "--window must be 1 to 1048576, not 0");
  expect_usage_error({"--op=stream-bw", "--window=-3"}, "--window must be 1 to 1048576, not -3");
  expect_usage_error({"--op=stream-bw", "--window=1048577"},
                     "--window must be 1 to 1048576, not 1048577");
  expect_usage_error({"--op=stream-bw", "--window=wide"}, "--window");
  expect_usage_error({"--op=stream-bw", "--window=wide"}, "wide");
  expect_usage_error({"--op=stream-bw", "--window=99999999999"}, "--window");
  expect_usage_error({"--op=stream-bw", "--window="}, "--window");
  std::string windowed;  // the golden list's windowed ops: "stream-bw", "stream-bw or bibw"
  for (const test::GoldenOp& g : test::kGoldenOps)
    if (g.timing == Timing::kWindow)
      windowed += (windowed.empty() ? "" : " or ") + std::string(g.name);
  const std::string refused = "--window applies to " + windowed + ", which --op does not select";
  EXPECT_EQ(usage_error({"--op=pingpong,broadcast", "--window=8"}), refused);
  EXPECT_EQ(usage_error({"--window=8"}), refused);
}

TEST(Cli, CommandLineIsKept) {
  EXPECT_EQ(parse({"--op=pingpong", "--np=2"}).command_line, "comops --op=pingpong --np=2");
}

TEST(Cli, OutputDirFillsFourPaths) {
  const Config c = parse({"--output-dir", "d"});
  EXPECT_EQ(c.out.dir, "d");
  EXPECT_EQ(c.out.table, "d/table.txt");
  EXPECT_EQ(c.out.csv, "d/results.csv");
  EXPECT_EQ(c.out.json, "d/results.json");
  EXPECT_EQ(c.out.gbench_json, "d/gbench.json");

  const Config k = parse({"-o", "d", "--csv=x.csv", "--json=y.json", "--gbench-json=z.json"});
  EXPECT_EQ(k.out.table, "d/table.txt");
  EXPECT_EQ(k.out.csv, "x.csv");
  EXPECT_EQ(k.out.json, "y.json");
  EXPECT_EQ(k.out.gbench_json, "z.json");
}

TEST(CliErrors, UnknownBackendAndOp) {
  expect_usage_error({"--backend=nope"}, "unknown backend 'nope' (available: mpi");
  expect_usage_error({"--backend=,"}, "--backend names no backend");
  expect_usage_error({"--op=nope"}, "unknown op 'nope' (available: pingpong");
  expect_usage_error({"--op=pingpong,reduce-min"}, "unknown op 'reduce-min'");
  expect_usage_error({"--op=,"}, "--op names no operation");
  expect_usage_error({"--reduce-op=min"}, "unknown --reduce-op 'min' (expected max or sum)");
}

TEST(CliErrors, BadSizes) {
  expect_usage_error({"--sizes=8,abc"}, "invalid size 'abc'");
  expect_usage_error({"-b", "0"}, "invalid size '0': must be at least 1 byte");
  expect_usage_error({"-e", "12Q"}, "invalid size '12Q'");
  expect_usage_error({"--np-bytes=x"}, "invalid size 'x'");
  expect_usage_error({"-b", "1K", "-e", "8"}, "--min-bytes 1K is larger than --max-bytes 8");
  expect_usage_error({"-f", "1"}, "--step-factor 1 must be at least 2");
  expect_usage_error({"--sizes=8,12"}, "size 12 is not a multiple of 8 bytes");
  expect_usage_error({"-b", "4"}, "size 4 is not a multiple of 8 bytes");
  expect_usage_error({"--np-bytes=100"}, "size 100 is not a multiple of 8 bytes");
  expect_usage_error({"--sizes=,"}, "--sizes names no size");
}

TEST(CliErrors, BadCounts) {
  expect_usage_error({"--np=0"}, "--np value 0 must be at least 1");
  expect_usage_error({"--np=2,-4"}, "--np value -4 must be at least 1");
  expect_usage_error({"--np=x"}, "invalid --np value 'x'");
  expect_usage_error({"--np=2x"}, "invalid --np value '2x'");
  expect_usage_error({"--np=99999999999"}, "invalid --np value '99999999999'");
  expect_usage_error({"--np=,"}, "--np names no participant count");
  expect_usage_error({"--repetitions=0"}, "--repetitions must be at least 1");
  expect_usage_error({"--iters=0"}, "--iters must be at least 1");
  expect_usage_error({"--warmup=-1"}, "--warmup must be at least 0");
  expect_usage_error({"--size-np=-2"}, "--size-np must be at least 1");
}

TEST(CliErrors, BadChoices) {
  expect_usage_error({"--bind=bad"}, "unknown --bind 'bad' (expected compact, spread or none)");
  expect_usage_error({"--progress=sometimes"},
                     "unknown --progress 'sometimes' (expected auto, always, lines or never)");
  expect_usage_error({"--sync=always"}, "unknown --sync 'always' (expected none or barrier)");
  expect_usage_error({"--sync=Barrier"}, "unknown --sync 'Barrier' (expected none or barrier)");
  expect_usage_error({"--sync=none,barrier"},
                     "unknown --sync 'none,barrier' (expected none or barrier)");
  expect_usage_error({"--sync"}, "--sync");
  expect_usage_error({"--sync="}, "--sync");
  expect_usage_error({"--percentiles=maybe"}, "--percentiles");
}

TEST(CliErrors, Cli11Errors) {
  expect_usage_error({"--sizes=8", "-b", "16"}, "excludes");
  expect_usage_error({"--sizes=8", "-b", "16"}, "--sizes");
  expect_usage_error({"--sizes=8", "--step-factor=4"}, "excludes");
  expect_usage_error({"--frobnicate"}, "--frobnicate");
  expect_usage_error({"--repetitions=many"}, "many");
  expect_usage_error({"--np"}, "--np");
}

TEST(Cli, HelpAndVersionExitEarly) {
  try {
    parse({"--help"});
    ADD_FAILURE() << "--help did not throw EarlyExit";
  } catch (const EarlyExit& e) {
    EXPECT_NE(e.text.find("--backend"), std::string::npos) << e.text;
    EXPECT_NE(e.text.find("Exit codes"), std::string::npos) << e.text;
    EXPECT_NE(e.text.find("--reduce-op"), std::string::npos) << e.text;
    EXPECT_NE(e.text.find("mpi: "), std::string::npos) << e.text;
    EXPECT_EQ(e.text.find("--inject-fault"), std::string::npos) << "hidden option shown";
  }
  try {
    parse({"--version"});
    ADD_FAILURE() << "--version did not throw EarlyExit";
  } catch (const EarlyExit& e) {
    EXPECT_EQ(e.text, "comops 0.1.0\n");
  }
}

TEST(Cli, OsuAliases) {
  EXPECT_EQ(parse({"-m", "1K:8K"}).sizes, (std::vector<std::size_t>{1024, 2048, 4096, 8192}));
  EXPECT_EQ(parse({"-m", "64"}).sizes, (std::vector<std::size_t>{8, 16, 32, 64}));  // MIN: 8
  EXPECT_EQ(parse({"-m", "4M:"}).sizes, (std::vector<std::size_t>{4u << 20, 8u << 20}));
  EXPECT_EQ(parse({"-m", ":16"}).sizes, (std::vector<std::size_t>{8, 16}));
  EXPECT_EQ(parse({"-m", "1K:16K", "-f", "4"}).sizes,
            (std::vector<std::size_t>{1024, 4096, 16384}));
  const Config c = parse({"-i", "100", "-x", "3"});
  EXPECT_EQ(c.measure.iterations, 100);
  EXPECT_EQ(c.measure.warmup, 3);
  EXPECT_EQ(parse({"-x", "0"}).measure.warmup, 0);
}

TEST(CliErrors, OsuAliases) {
  expect_usage_error({"-m", "8:1K", "--sizes=8"}, "--sizes excludes -m");
  expect_usage_error({"--sizes=8", "-m", "1K"}, "excludes");
  expect_usage_error({"-m", "1K", "-b", "8"}, "--min-bytes excludes -m");
  expect_usage_error({"-m", "1K", "--max-bytes=2K"}, "--max-bytes excludes -m");
  expect_usage_error({"-m", ":"}, "invalid -m ':' (expected [MIN:]MAX, e.g. 8:1M)");
  expect_usage_error({"-m", "8:16:32"}, "invalid -m '8:16:32' (expected [MIN:]MAX, e.g. 8:1M)");
  expect_usage_error({"-m", "8:abc"}, "invalid size 'abc'");
  expect_usage_error({"-m", "12"}, "size 12 is not a multiple of 8 bytes");
  expect_usage_error({"-m", "1K:8"}, "--min-bytes 1K is larger than --max-bytes 8");
  expect_usage_error({"-m", ""}, "-m needs a value, not an empty one");
  expect_usage_error({"-i", "5", "-n", "6"}, "--iters excludes -i");
  expect_usage_error({"-x", "1", "--warmup=2"}, "--warmup excludes -x");
  expect_usage_error({"-i", "0"}, "-i must be at least 1");
  expect_usage_error({"-x", "-1"}, "-x must be at least 0");
  expect_usage_error({"-i", "many"}, "many");
}

TEST(Cli, OutputDirNamedLikeAnOpIsWarnedAbout) {
  const std::string sum =
      "-o sum writes the results into the directory sum/ (-o is --output-dir in comops; a "
      "reduction operator is --reduce-op, an operation --op)";
  EXPECT_EQ(parse({"-o", "sum"}).warnings, std::vector<std::string>{sum});
  for (const char* word : {"prod", "min", "max", "avg", "all", "reduce", "pingpong", "broadcast",
                           "reduce-max", "barrier"}) {
    const auto warnings = parse({"-o", word}).warnings;
    ASSERT_EQ(warnings.size(), 1u) << word;
    EXPECT_EQ(warnings[0].rfind(
                  fmt::format("-o {0} writes the results into the directory {0}/", word), 0),
              0u)
        << warnings[0];
  }
  EXPECT_EQ(parse({"--output-dir=max"}).warnings.size(), 1u);
  EXPECT_EQ(parse({"-o", "sum"}).out.dir, "sum");  // warned, not refused
  for (const char* dir : {"results", "./sum", "sum/", "out/max", "Summary"})
    EXPECT_TRUE(parse({"-o", dir}).warnings.empty()) << dir;
  EXPECT_TRUE(parse({}).warnings.empty());
}

TEST(Cli, ForceAndNpBytesGiven) {
  EXPECT_FALSE(parse({"-o", "d"}).force);
  EXPECT_TRUE(parse({"-o", "d", "--force"}).force);
  expect_usage_error({"--force"}, "--force requires --output-dir");
  EXPECT_FALSE(parse({}).np_bytes_given);
  EXPECT_FALSE(parse({"--np=2,4"}).np_bytes_given);
  EXPECT_TRUE(parse({"--np-bytes=800K"}).np_bytes_given);
}

// --help ------------------------------------------------------------------------------------

std::string help_text() {
  try {
    parse({"--help"});
  } catch (const EarlyExit& e) {
    return e.text;
  }
  ADD_FAILURE() << "--help did not throw EarlyExit";
  return {};
}

// The options listed under "GROUP:" in --help, by their first name, up to the next group.
std::vector<std::string> help_group(const std::string& help, const std::string& group) {
  std::vector<std::string> names;
  const auto at = help.find("\n" + group + ":\n");
  if (at == std::string::npos) return names;
  std::istringstream lines(help.substr(at + group.size() + 3));
  std::string line;
  while (std::getline(lines, line) && !line.empty()) {
    if (line.rfind("  -", 0) != 0) continue;  // a description's continuation
    const auto end = line.find_first_of(" ,", 2);
    names.push_back(line.substr(2, end - 2));
  }
  return names;
}

TEST(CliHelp, EveryLineFitsIn100Columns) {
  const std::string help = help_text();
  std::istringstream lines(help);
  std::string line;
  int count = 0;
  while (std::getline(lines, line)) {
    ++count;
    EXPECT_LE(line.size(), 100u) << line;
  }
  EXPECT_GT(count, 60);
  EXPECT_EQ(help.find("Excludes"), std::string::npos);
  EXPECT_EQ(help.find("Needs"), std::string::npos);
}

TEST(CliHelp, OptionsAreGroupedPerBackend) {
  const std::string help = help_text();
  EXPECT_EQ(help_group(help, "General"),
            (std::vector<std::string>{"-h", "--version", "--backend", "--op", "--reduce-op"}));
  EXPECT_EQ(
      help_group(help, "Sizes and participants"),
      (std::vector<std::string>{"--np", "--size-np", "--sizes", "-b", "-e", "-f", "--np-bytes"}));
  EXPECT_EQ(help_group(help, "Measurement"),
            (std::vector<std::string>{"-n", "-w", "-r", "--seed", "--sync", "--percentiles",
                                      "--no-limits", "--placement-probe", "--window"}));
  EXPECT_EQ(help_group(help, "Placement"),
            (std::vector<std::string>{"--bind", "--placement", "--pair", "--mpiexec"}));
  EXPECT_EQ(help_group(help, "Output"),
            (std::vector<std::string>{"--progress", "-o", "--csv", "--json", "--gbench-json",
                                      "--force"}));
  EXPECT_EQ(help_group(help, "shm backend"), (std::vector<std::string>{"--scheme"}));
  EXPECT_EQ(help_group(help, "shmp backend"),
            (std::vector<std::string>{"--shmp-scheme", "--shmp-window-max"}));
  EXPECT_EQ(help_group(help, "mpi backend"), (std::vector<std::string>{"--mpi-variant"}));
  EXPECT_EQ(help_group(help, "swcc backend"),
            (std::vector<std::string>{"--block-size", "--uncached"}));
  EXPECT_EQ(help_group(help, "OSU aliases"), (std::vector<std::string>{"-m", "-i", "-x"}));
  EXPECT_EQ(help_group(help, "Faults"),
            (std::vector<std::string>{"--watchdog", "--startup-timeout"}));
  EXPECT_EQ(help.find("\nOptions:\n"), std::string::npos) << "an option without a group";
  // The groups in this order, and nothing else.
  std::vector<std::string> groups;
  std::istringstream lines(help);
  std::string line, previous = "x";
  for (; std::getline(lines, line); previous = line)  // a title: after an empty line, ends in ':'
    if (previous.empty() && !line.empty() && line[0] != ' ' && line.back() == ':')
      groups.push_back(line.substr(0, line.size() - 1));
  EXPECT_EQ(groups, (std::vector<std::string>{"General", "Sizes and participants", "Measurement",
                                              "Placement", "Output", "Faults", "mpi backend",
                                              "Applications", "shm backend", "shmp backend",
                                              "hybrid backend", "swcc backend", "OSU aliases"}));
}

TEST(CliHelp, DefaultsAndTheDefaultRun) {
  const std::string help = help_text();
  // A default ends its description, wrapped with it, instead of CLI11's "TEXT=8" column.
  EXPECT_NE(
      help.find("  -b,--min-bytes SIZE       Smallest message size of the sweep (default: 8)\n"),
      std::string::npos)
      << help;
  EXPECT_NE(help.find("  -r,--repetitions N        Timed repetitions per point (default: 5)\n"),
            std::string::npos)
      << help;
  EXPECT_NE(help.find("time-versus-nprocs table at 800K (--np-bytes)"), std::string::npos);
}

// The footer's default run names every family, in --backend=all's order, from the families
// themselves: a new backend cannot be left out of it.
TEST(CliHelp, TheDefaultRunNamesEveryBackendFamily) {
  std::string names;
  for (const auto& n : family_names()) names += (names.empty() ? "" : ", ") + n;
  ASSERT_EQ(names.rfind("mpi", 0), 0u) << names;
  EXPECT_NE(help_text().find("The default run: every backend (" + names + "), each with its"),
            std::string::npos)
      << help_text();
}

TEST(HelpFormatter, WrapLines) {
  EXPECT_EQ(wrap_lines("one two three four", 9),
            (std::vector<std::string>{"one two", "three", "four"}));
  EXPECT_EQ(wrap_lines("a\n  bb cc dd\n\nlonglongword x", 8),
            (std::vector<std::string>{"a", "  bb cc", "  dd", "", "longlongword", "x"}));
  EXPECT_TRUE(wrap_lines("", 10).empty());
}

// check_output_dir --------------------------------------------------------------------------

TEST(CheckOutputDir, RefusesANonEmptyDirectoryWithoutForce) {
  namespace fs = std::filesystem;
  const fs::path root = fs::path(::testing::TempDir()) / "comops_check_output_dir";
  fs::remove_all(root);
  fs::create_directories(root / "empty");
  fs::create_directories(root / "hidden");
  std::ofstream(root / "hidden" / ".keep").put('x');
  fs::create_directories(root / "subdir" / "inner");
  std::ofstream(root / "file").put('x');

  Config c;
  EXPECT_NO_THROW(check_output_dir(c));  // no --output-dir
  c.out.dir = (root / "missing").string();
  EXPECT_NO_THROW(check_output_dir(c));
  c.out.dir = (root / "empty").string();
  EXPECT_NO_THROW(check_output_dir(c));
  for (const char* name : {"hidden", "subdir"}) {
    c.out.dir = (root / name).string();
    try {
      check_output_dir(c);
      ADD_FAILURE() << name << " was not refused";
    } catch (const UsageError& e) {
      EXPECT_EQ(std::string(e.what()),
                "--output-dir " + c.out.dir +
                    " is not empty (--force writes into it, replacing comops' files there; or "
                    "choose another directory)");
    }
    c.force = true;
    EXPECT_NO_THROW(check_output_dir(c)) << name;
    c.force = false;
  }
  c.out.dir = (root / "file").string();
  c.force = true;  // --force writes into a directory, it does not replace a file
  try {
    check_output_dir(c);
    ADD_FAILURE() << "a regular file was accepted";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()),
              "--output-dir " + c.out.dir + " exists and is not a directory");
  }
  fs::remove_all(root);
}

// finalize_config ---------------------------------------------------------------------------

Config with_ops(std::vector<OpKind> ops) {
  Config c;
  c.ops = std::move(ops);
  return c;
}

TEST(FinalizeConfig, DefaultNpListFromCores) {
  const std::vector<OpKind> all = {OpKind::kPingpong, OpKind::kBroadcast, OpKind::kBarrier};
  struct Case {
    int cores;
    std::vector<int> np_list;
    int size_np;
  };
  for (const Case& k : std::vector<Case>{{1, {2}, 2},
                                         {2, {2}, 2},
                                         {3, {2, 3}, 3},
                                         {4, {2, 4}, 4},
                                         {6, {2, 4, 6}, 4},
                                         {8, {2, 4, 8}, 4},
                                         {12, {2, 4, 8, 12}, 4}}) {
    Config c = with_ops(all);
    finalize_config(c, 1, false, true, k.cores);
    EXPECT_EQ(c.np_list, k.np_list) << "cores=" << k.cores;
    EXPECT_EQ(c.size_np, k.size_np) << "cores=" << k.cores;
    EXPECT_EQ(max_np(c), k.np_list.back()) << "cores=" << k.cores;
  }
}

TEST(FinalizeConfig, DefaultNpListFromLaunchedWorld) {
  Config c = with_ops({OpKind::kPingpong});
  finalize_config(c, 4, true, true, 2);
  EXPECT_EQ(c.np_list, (std::vector<int>{2, 4}));
  EXPECT_EQ(c.size_np, 4);

  Config one = with_ops({OpKind::kPingpong});  // a world of 1 under a launcher: by the cores
  finalize_config(one, 1, true, false, 2);
  EXPECT_EQ(one.np_list, (std::vector<int>{2}));
}

TEST(FinalizeConfig, GivenNpListIsSortedAndUnique) {
  Config c = with_ops({OpKind::kPingpong});
  c.np_list = {8, 2, 4, 2};
  c.np_given = true;
  finalize_config(c, 1, false, true, 2);
  EXPECT_EQ(c.np_list, (std::vector<int>{2, 4, 8}));
  EXPECT_EQ(c.size_np, 4);
  EXPECT_EQ(max_np(c), 8);
}

TEST(FinalizeConfig, SizeNpIsLargestUpTo4OrSmallest) {
  Config c = with_ops({OpKind::kBroadcast});
  c.np_list = {1, 3, 5};
  c.np_given = true;
  finalize_config(c, 1, false, false, 2);
  EXPECT_EQ(c.size_np, 3);

  Config big = with_ops({OpKind::kBroadcast});
  big.np_list = {16, 8};
  big.np_given = true;
  finalize_config(big, 1, false, false, 2);
  EXPECT_EQ(big.size_np, 8);

  Config given = with_ops({OpKind::kBroadcast});
  given.np_list = {2, 4};
  given.np_given = true;
  given.size_np = 6;
  finalize_config(given, 1, false, false, 2);
  EXPECT_EQ(given.size_np, 6);
  EXPECT_EQ(max_np(given), 6);
}

TEST(FinalizeConfig, PingpongNeedsTwo) {
  Config c = with_ops({OpKind::kPingpong, OpKind::kBroadcast});
  c.np_list = {1, 2};
  c.np_given = true;
  try {
    finalize_config(c, 1, false, true, 2);
    ADD_FAILURE() << "np=1 with pingpong did not throw";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "pingpong needs at least 2 participants, but np=1 was asked for");
  }

  Config s = with_ops({OpKind::kPingpong});  // size_np 1 alone also counts
  s.np_list = {2};
  s.np_given = true;
  s.size_np = 1;
  EXPECT_THROW(finalize_config(s, 1, false, true, 2), UsageError);

  Config b = with_ops({OpKind::kBroadcast, OpKind::kBarrier});
  b.np_list = {1};
  b.np_given = true;
  EXPECT_NO_THROW(finalize_config(b, 1, false, true, 2));
  EXPECT_EQ(b.size_np, 1);
}

TEST(FinalizeConfig, NpAboveTheLaunchedWorld) {
  Config c = with_ops({OpKind::kPingpong});
  c.np_list = {2, 8};
  c.np_given = true;
  try {
    finalize_config(c, 4, true, true, 2);
    ADD_FAILURE() << "np=8 in a world of 4 did not throw";
  } catch (const UsageError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("np=8 needs 8 MPI processes but comops was started with 4"),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find("mpiexec -n 8"), std::string::npos) << msg;
  }

  // Not launched (comops relaunches itself) or thread backends only: no limit from the world.
  Config direct = with_ops({OpKind::kPingpong});
  direct.np_list = {2, 8};
  direct.np_given = true;
  EXPECT_NO_THROW(finalize_config(direct, 1, false, true, 2));
  Config threads = with_ops({OpKind::kPingpong});
  threads.np_list = {2, 8};
  threads.np_given = true;
  EXPECT_NO_THROW(finalize_config(threads, 4, true, false, 2));

  Config size = with_ops({OpKind::kPingpong});  // a --size-np above the world counts too
  size.np_list = {2};
  size.np_given = true;
  size.size_np = 6;
  EXPECT_THROW(finalize_config(size, 4, true, true, 2), UsageError);
}

TEST(FinalizeConfig, ParsedDefaultsEndToEnd) {
  Config c = parse({"--op=pingpong"});
  finalize_config(c, 1, false, true, 6);
  EXPECT_EQ(c.np_list, (std::vector<int>{2, 4, 6}));
  EXPECT_EQ(c.size_np, 4);

  Config one = parse({"--op=pingpong", "--np=1"});
  EXPECT_THROW(finalize_config(one, 1, false, true, 2), UsageError);
}

}  // namespace
}  // namespace comops
