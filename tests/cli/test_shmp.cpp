// The process team (shmp-staged, shmp-direct) through the real binary: its rows exact and
// labelled, its processes pinned; oversubscribed correctness and the O flag; a window past
// --shmp-window-max one line and exit 3 whether comops launches itself or runs under mpiexec;
// on two nodes, node 0's ranks only, with notes for what cannot run there.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "cli_runner.hpp"

namespace {

using namespace comops_test;  // comops(), scratch(), slurp(), lines()
namespace fs = std::filesystem;

constexpr const char* kHangBound = "timeout -s KILL 120";

TEST(Shmp, BothSchemesValidateWithDistinctCoresAndTheirContext) {
  const fs::path dir = scratch();
  const Outcome o = comops(
      fmt::format("--backend=shmp --op=pingpong,broadcast,reduce,alltoall --np=2 --sizes=8,64K "
                  "--np-bytes=64K -n 5 -w 1 -r 2 --no-limits --progress=never --json {}/r.json",
                  dir.string()));
  ASSERT_EQ(o.code, 0) << o.err;
  const auto doc = nlohmann::json::parse(slurp(dir / "r.json"));
  std::map<std::string, int> rows;  // backend -> rows
  for (const auto& row : doc["results"]) {
    EXPECT_EQ(row["wrong"], 0) << row.dump();
    EXPECT_EQ(row["np"], 2) << row.dump();
    EXPECT_EQ(row["nodes"], 1) << row.dump();
    ASSERT_EQ(row["cores"].size(), 2u) << row.dump();
    EXPECT_NE(row["cores"][0], row["cores"][1]) << row.dump();  // two processes, each pinned
    ++rows[row["backend"].get<std::string>()];
  }
  EXPECT_EQ(rows, (std::map<std::string, int>{{"shmp-direct", 8}, {"shmp-staged", 8}}));
  const auto& facts = doc["context"]["backends"];
  for (const char* label : {"shmp-staged", "shmp-direct"}) {
    ASSERT_TRUE(facts.contains(label)) << doc["context"].dump();
    EXPECT_EQ(facts[label]["window_max_bytes"], std::size_t{4} << 30);
    EXPECT_NE(facts[label]["participants"].get<std::string>().find("MPI processes of node 0"),
              std::string::npos);
  }
  EXPECT_NE(o.out.find("   shmp-direct "), std::string::npos) << o.out;
}

// Four processes on this machine: oversubscribed where it has fewer cores (CI: 2), where every
// wait must give its core away; the results stay exact and the rows say so.
TEST(Shmp, FourProcessesStayExactAndAreFlaggedWhenOversubscribed) {
  const fs::path dir = scratch();
  const Outcome o = comops(
      fmt::format("--backend=shmp --op=broadcast,allreduce-sum,gather --np=4 --size-np=4 "
                  "--sizes=64,16K --np-bytes=16K -n 5 -w 1 -r 2 --no-limits --progress=never "
                  "--json {}/r.json",
                  dir.string()),
      kHangBound);
  ASSERT_EQ(o.code, 0) << o.err;
  const auto doc = nlohmann::json::parse(slurp(dir / "r.json"));
  const int cores = doc["context"]["nodes"][0]["cores"].get<int>();
  ASSERT_EQ(doc["results"].size(), 12u) << doc["results"].dump();
  for (const auto& row : doc["results"]) {
    EXPECT_EQ(row["wrong"], 0) << row.dump();
    EXPECT_EQ(row["oversubscribed"], 4 > cores) << row.dump();
  }
  if (4 > cores) {
    EXPECT_TRUE(std::regex_search(o.out, std::regex("   shmp-direct .* [CWL]*O[CWL]*\n"))) << o.out;
  }
}

// A point whose windows would pass --shmp-window-max: exit 3 and one line naming the option, the
// rows before it kept; run directly (comops launches itself) and under the user's mpiexec with a
// rank that takes no part.
TEST(Shmp, WindowPastTheMaxIsOneLineAndExitThreeOnEveryLaunch) {
  for (const std::string& launch :
       {std::string(kHangBound), fmt::format("{} {} -n 3", kHangBound, COMOPS_MPIEXEC)}) {
    const fs::path dir = scratch();
    const Outcome o =
        comops(fmt::format("--backend=shmp --shmp-scheme=direct --op=broadcast --np=2 --sizes=8,1M "
                           "--np-bytes=8 -n 5 -w 1 -r 2 --no-limits --progress=never "
                           "--shmp-window-max=64K --json {}/r.json",
                           dir.string()),
               launch);
    EXPECT_EQ(o.code, 3) << launch << "\n" << o.err;
    EXPECT_EQ(lines(o.err), 1) << launch << "\n" << o.err;
    EXPECT_EQ(o.err.rfind("comops: error: shmp: the point needs a shared window of ", 0), 0u)
        << o.err;
    EXPECT_NE(o.err.find("more than --shmp-window-max=65536 bytes"), std::string::npos) << o.err;
    const auto doc = nlohmann::json::parse(slurp(dir / "r.json"));
    ASSERT_EQ(doc["results"].size(), 1u) << doc.dump();
    EXPECT_EQ(doc["results"][0]["bytes"], 8);
    EXPECT_EQ(doc["results"][0]["wrong"], 0);
  }
}

TEST(Shmp, BadOptionsAreUsageErrors) {
  expect_usage_error("--backend=shmp --shmp-window-max=lots",
                     "--shmp-window-max: invalid size 'lots'");
  expect_usage_error("--backend=shmp --shmp-scheme=zero",
                     "--shmp-scheme: unknown shm scheme 'zero' (expected staged or direct)");
}

// Two nodes of two ranks: the process team is node 0's ranks (np 2 on one node), np 4 and the
// inter-node ping-pong are left out with a note each, and the table says where it ran.
TEST(Shmp, OnTwoNodesItRunsOnNodeZerosRanks) {
  SKIP_WITHOUT_HYDRA();
  const fs::path dir = scratch();
  const Outcome o = comops(
      fmt::format("--backend=shmp --shmp-scheme=direct --op=pingpong,broadcast --sizes=8 "
                  "--np=2,4 --size-np=2 --np-bytes=8 --pair=both --placement=spread -n 5 -w 1 "
                  "-r 2 --no-limits --progress=never --json {}/r.json",
                  dir.string()),
      fmt::format("{} {}", kHangBound, two_node_mpiexec()));
  ASSERT_EQ(o.code, 0) << o.err;
  const auto doc = nlohmann::json::parse(slurp(dir / "r.json"));
  const std::string host0 = doc["context"]["nodes"][0]["host"];
  for (const std::string& note :
       {std::string("comops: note: shmp-direct: pingpong between nodes is not possible "
                    "(processes share one node), skipped"),
        fmt::format("comops: note: shmp-direct: broadcast at np=4 needs 4 ranks on node 0 ({}), "
                    "which runs 2, skipped",
                    host0)})
    EXPECT_NE(o.err.find(note), std::string::npos) << note << "\n" << o.err;
  EXPECT_NE(o.out.find("shmp processes are node 0's first ranks"), std::string::npos) << o.out;
  std::set<std::string> seen;
  for (const auto& row : doc["results"]) {
    EXPECT_EQ(row["wrong"], 0) << row.dump();
    EXPECT_EQ(row["nodes"], 1) << row.dump();  // node 0 alone, though --placement=spread
    EXPECT_EQ(row["hosts"], (std::vector<std::string>{host0, host0})) << row.dump();
    seen.insert(fmt::format("{} np={}", row["op"].get<std::string>(), row["np"].get<int>()));
  }
  EXPECT_EQ(seen, (std::set<std::string>{"broadcast np=2", "pingpong np=2"}));
}

}  // namespace
