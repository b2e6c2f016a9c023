// The hybrid backend through the real binary: its rows exact and labelled "hybrid" beside mpi's,
// its context (two levels, the node size); four ranks as two nodes of two with
// --hybrid-node-size=2; on two made-up hosts, with a node's ranks consecutive or not; a window
// past --hybrid-window-max is one line and exit 3; bad --hybrid-node-size and --hybrid-window-max
// are one line and exit 2.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_runner.hpp"

namespace {

using namespace comops_test;  // comops(), scratch(), slurp(), lines()
namespace fs = std::filesystem;

constexpr const char* kHangBound = "timeout -s KILL 120";
constexpr const char* kOps = "pingpong,broadcast,reduce-max,allreduce-sum,gather,scatter,barrier";

TEST(Hybrid, RowsBesideMpiAreExactAndTheContextSaysTwoLevels) {
  const fs::path dir = scratch();
  const Outcome o = comops(
      fmt::format("--backend=mpi,hybrid --op={} --np=2 --sizes=8,64K --np-bytes=64K -n 5 -w 1 "
                  "-r 2 --no-limits --progress=never --hybrid-node-size=1 --json {}/r.json",
                  kOps, dir.string()),
      kHangBound);
  ASSERT_EQ(o.code, 0) << o.err;
  const auto doc = nlohmann::json::parse(slurp(dir / "r.json"));
  std::map<std::string, int> rows;  // backend -> rows
  for (const auto& row : doc["results"]) {
    EXPECT_EQ(row["wrong"], 0) << row.dump();
    EXPECT_EQ(row["np"], 2) << row.dump();
    ++rows[row["backend"].get<std::string>()];
  }
  // 6 ops at 2 sizes and the barrier once, on each backend.
  EXPECT_EQ(rows, (std::map<std::string, int>{{"hybrid", 13}, {"mpi", 13}}));
  const auto& facts = doc["context"]["backends"]["hybrid"];
  EXPECT_EQ(facts["node_size"], 1) << facts.dump();
  EXPECT_EQ(facts["levels"].get<std::string>().rfind("two: shared memory inside a node", 0), 0u)
      << facts.dump();
  EXPECT_NE(o.out.find("   hybrid "), std::string::npos) << o.out;
}

// Four processes as two nodes of two (past the cores on a 2-core machine): still exact.
TEST(Hybrid, FourRanksAsTwoNodesOfTwoStayExact) {
  const fs::path dir = scratch();
  const Outcome o = comops(
      fmt::format("--backend=hybrid --op={} --np=4 --size-np=4 --sizes=24,16K --np-bytes=16K -n 3 "
                  "-w 1 -r 2 --no-limits --progress=never --hybrid-node-size=2 --json {}/r.json",
                  kOps, dir.string()),
      kHangBound);
  ASSERT_EQ(o.code, 0) << o.err;
  const auto doc = nlohmann::json::parse(slurp(dir / "r.json"));
  EXPECT_EQ(doc["results"].size(), 13u) << doc["results"].dump();
  for (const auto& row : doc["results"]) {
    EXPECT_EQ(row["wrong"], 0) << row.dump();
    EXPECT_EQ(row["backend"], "hybrid") << row.dump();
  }
  EXPECT_EQ(doc["context"]["backends"]["hybrid"]["node_size"], 2);
}

// Two nodes of two ranks as MPI sees them (MPI_COMM_TYPE_SHARED splits the made-up hosts): the
// hybrid rows span both nodes, exact, as the flat mpi rows beside them.
TEST(Hybrid, OnTwoNodesItsRowsSpanBoth) {
  SKIP_WITHOUT_HYDRA();
  const fs::path dir = scratch();
  const Outcome o = comops(
      fmt::format("--backend=mpi,hybrid --op={} --np=4 --size-np=4 --sizes=8,24K --np-bytes=24K "
                  "--placement=spread -n 3 -w 1 -r 2 --no-limits --progress=never --json {}/r.json",
                  kOps, dir.string()),
      fmt::format("{} {}", kHangBound, two_node_mpiexec()));
  ASSERT_EQ(o.code, 0) << o.err;
  const auto doc = nlohmann::json::parse(slurp(dir / "r.json"));
  std::map<std::string, int> rows;
  for (const auto& row : doc["results"]) {
    EXPECT_EQ(row["wrong"], 0) << row.dump();
    const bool intra = row.contains("pair") && row["pair"] == "intra";
    EXPECT_EQ(row["nodes"], intra ? 1 : 2) << row.dump();
    ++rows[row["backend"].get<std::string>()];
  }
  // 5 ops and the ping-pong's two pairs at 2 sizes, the barrier once.
  EXPECT_EQ(rows, (std::map<std::string, int>{{"hybrid", 15}, {"mpi", 15}}));
}

// np 3 spread over two nodes of two: participants 0 and 2 on the first node, 1 on the second, so
// a node's ranks are not consecutive and participant 0's gather and scatter blocks go through its
// staging vector in node order; every row exact.
TEST(Hybrid, OnTwoNodesInterleavedRanksStayExact) {
  SKIP_WITHOUT_HYDRA();
  const fs::path dir = scratch();
  const Outcome o = comops(
      fmt::format("--backend=hybrid --op=broadcast,reduce-sum,allreduce-sum,gather,scatter "
                  "--np=3 --size-np=3 --sizes=8,4K --np-bytes=4K --placement=spread -n 3 -w 1 -r 2 "
                  "--no-limits --progress=never --json {}/r.json",
                  dir.string()),
      fmt::format("{} {}", kHangBound, two_node_mpiexec()));
  ASSERT_EQ(o.code, 0) << o.err;
  const auto doc = nlohmann::json::parse(slurp(dir / "r.json"));
  EXPECT_EQ(doc["results"].size(), 10u) << doc["results"].dump();
  for (const auto& row : doc["results"]) {
    EXPECT_EQ(row["wrong"], 0) << row.dump();
    EXPECT_EQ(row["nodes"], 2) << row.dump();
    EXPECT_EQ(row["cores"], (std::vector<int>{0, 0, 1})) << row.dump();  // node a, b, a
  }
}

// A point whose node window would pass --hybrid-window-max (each rank its own node: the window
// of one node is enough): one line and exit 3, the row before it kept.
TEST(Hybrid, WindowPastTheMaxIsOneLineAndExitThree) {
  const fs::path dir = scratch();
  const Outcome o = comops(
      fmt::format("--backend=hybrid --op=broadcast --np=2 --sizes=8,1M --np-bytes=8 -n 3 -w 1 -r 1 "
                  "--no-limits --progress=never --hybrid-window-max=64K --hybrid-node-size=1 "
                  "--json {}/r.json",
                  dir.string()),
      kHangBound);
  EXPECT_EQ(o.code, 3) << o.err;
  EXPECT_EQ(lines(o.err), 1) << o.err;
  EXPECT_EQ(o.err.rfind("comops: error: hybrid: the point needs a shared window of ", 0), 0u)
      << o.err;
  EXPECT_NE(o.err.find("more than --hybrid-window-max=65536 bytes"), std::string::npos) << o.err;
  const auto doc = nlohmann::json::parse(slurp(dir / "r.json"));
  ASSERT_EQ(doc["results"].size(), 1u) << doc.dump();
  EXPECT_EQ(doc["results"][0]["wrong"], 0);
}

TEST(Hybrid, BadOptionsAreUsageErrors) {
  expect_usage_error(
      "--backend=hybrid --hybrid-node-size=-2",
      "--hybrid-node-size must be 0 (the nodes MPI sees) or a number of ranks, not -2");
  expect_usage_error("--backend=hybrid --hybrid-node-size=two",
                     "Could not convert: --hybrid-node-size = two");
  expect_usage_error("--backend=hybrid --hybrid-window-max=lots",
                     "--hybrid-window-max: invalid size 'lots'");
}

}  // namespace
