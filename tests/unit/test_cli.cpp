// Unit tests of the command line (harness/cli.hpp) and of finalize_config (harness/config.hpp):
// defaults, option translation, and the exact one-line messages for bad input.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "comops/op.hpp"
#include "harness/cli.hpp"
#include "harness/config.hpp"
#include "harness/ops.hpp"
#include "harness/pinning.hpp"

namespace comops {
namespace {

// Parses "comops <args...>" with a fresh set of backend families.
Config parse(std::vector<std::string> args) {
  args.insert(args.begin(), "comops");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  auto families = backend_families();
  return parse_command_line(static_cast<int>(args.size()), argv.data(), families);
}

// The UsageError message parse(args) throws; fails the test if it throws nothing else.
std::string usage_error(const std::vector<std::string>& args) {
  try {
    parse(args);
  } catch (const UsageError& e) {
    return e.what();
  } catch (const EarlyExit& e) {
    ADD_FAILURE() << "EarlyExit instead of UsageError: " << e.text;
    return {};
  }
  ADD_FAILURE() << "no UsageError";
  return {};
}

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
  EXPECT_EQ(parse({"--op=all", "--reduce-op=sum,max"}).ops,
            (std::vector<OpKind>{OpKind::kPingpong, OpKind::kBroadcast, OpKind::kReduceMax,
                                 OpKind::kReduceSum, OpKind::kGather, OpKind::kScatter,
                                 OpKind::kBarrier}));
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
