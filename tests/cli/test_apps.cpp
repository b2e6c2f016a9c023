// Applications from the real binary (--app): bad names and parameters are usage errors (one line,
// exit 2); a matmul run on every backend writes exact rows that carry the app's parameters, the
// swcc rows their DSM counters, and the tables an application table.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "cli_runner.hpp"

namespace {

using namespace comops_test;  // comops(), scratch(), slurp(), lines(), kQuick ...
namespace fs = std::filesystem;

TEST(Apps, UnknownAppsAndBadParametersAreUsageErrors) {
  expect_usage_error("--app=nope", "unknown app 'nope' (available: matmul, em3d)");
  expect_usage_error("--app=matmul,nope", "unknown app 'nope' (available: matmul, em3d)");
  expect_usage_error("--app=matmul --matmul-n=x",
                     "invalid --matmul-n value 'x' (expected an integer from 1 to 2048)");
  expect_usage_error("--app=matmul --matmul-n=0",
                     "invalid --matmul-n value '0' (expected an integer from 1 to 2048)");
  expect_usage_error("--app=matmul --matmul-n=2049",
                     "invalid --matmul-n value '2049' (expected an integer from 1 to 2048)");
  expect_usage_error("--app=matmul --matmul-n=16x",
                     "invalid --matmul-n value '16x' (expected an integer from 1 to 2048)");
  expect_usage_error("--app=matmul --matmul-n=,", "--matmul-n names no value");
  expect_usage_error("--op=barrier --matmul-n=16",
                     "--matmul-n applies to the matmul app, which --app does not select");
  expect_usage_error("--op=matmul",
                     "'matmul' is an application, not an op: run it with --app=matmul");
  expect_usage_error("--app=", "--app: 1 required LIST missing");
  expect_usage_error("--app=,", "--app names no application");
}

TEST(Apps, MatmulRunsExactOnEveryBackendWithItsParametersInTheRows) {
  const fs::path dir = scratch();
  const Outcome o =
      comops(fmt::format("--app=matmul --backend=mpi,shm,swcc --block-size=8,64 --uncached --np=2 "
                         "--matmul-n=5,16 -n 1 -w 1 -r 1 --no-limits --progress=never -o {}",
                         (dir / "out").string()));
  ASSERT_EQ(o.code, 0) << o.err;
  const auto doc = nlohmann::json::parse(slurp(dir / "out" / "results.json"));
  std::set<std::string> seen;
  for (const auto& row : doc.at("results")) {
    EXPECT_EQ(row.at("op"), "matmul");
    EXPECT_EQ(row.at("np"), 2);
    EXPECT_EQ(row.at("wrong"), 0) << row.dump();
    const int n = row.at("app").at("n");
    seen.insert(fmt::format("{} n={}", row.at("backend").get<std::string>(), n));
    if (row.at("backend").get<std::string>().rfind("swcc", 0) == 0) {
      EXPECT_GT(row.at("counters").at("messages").get<long>(), 0) << row.dump();
    }
  }
  std::set<std::string> want;
  for (const char* b : {"mpi", "shm-staged", "shm-direct", "swcc-8", "swcc-64", "swcc-sc"})
    for (int n : {5, 16}) want.insert(fmt::format("{} n={}", b, n));
  EXPECT_EQ(seen, want);
  const std::string table = slurp(dir / "out" / "table.txt");
  EXPECT_NE(table.find("== matmul: application time versus nprocs and parameters =="),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("== matmul n=16: time in "), std::string::npos) << table;
  const std::string csv = slurp(dir / "out" / "results.csv");
  // the parameters' column, before the two steal columns that end a row
  EXPECT_NE(csv.find(",\"n=16\","), std::string::npos) << csv;
  const auto gbench = nlohmann::json::parse(slurp(dir / "out" / "gbench.json"));
  EXPECT_EQ(
      gbench.at("benchmarks").at(0).at("name").get<std::string>().rfind("mpi/matmul/np:2/n:", 0),
      0u)
      << gbench.dump();
}

}  // namespace
