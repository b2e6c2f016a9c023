// The placement probe in the real binary's rows: every row of a run on two cores carries its
// probe before and after the point, between the cores of its first two participants;
// --placement-probe=off writes null; a bad value is one line and exit 2.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "cli_runner.hpp"

namespace {

using namespace comops_test;  // comops(), scratch(), slurp()
namespace fs = std::filesystem;

const char* const kSweep = "--backend=mpi,shm --op=pingpong,broadcast --sizes=8 -n 5 -w 1 -r 2 "
                           "--no-limits";

TEST(PlacementProbe, EveryRowHasItsProbe) {
  if (std::thread::hardware_concurrency() < 2) GTEST_SKIP() << "one core: no probe";
  const fs::path dir = scratch();
  const Outcome o = comops(fmt::format("{} --json {}/r.json", kSweep, dir.string()));
  ASSERT_EQ(o.code, 0) << o.err;
  const auto doc = nlohmann::json::parse(slurp(dir / "r.json"));
  ASSERT_EQ(doc["results"].size(), 6u);  // mpi, shm-staged, shm-direct x 2 ops
  for (const auto& row : doc["results"]) {
    const auto& p = row.at("placement");
    ASSERT_TRUE(p.is_object()) << row.dump();
    EXPECT_GT(p.at("before_us").get<double>(), 0.0);
    EXPECT_GT(p.at("after_us").get<double>(), 0.0);
    EXPECT_EQ(p.at("cores"), nlohmann::json::array({0, 1})) << row.dump();
  }
}

TEST(PlacementProbe, OffWritesNull) {
  const fs::path dir = scratch();
  const Outcome o =
      comops(fmt::format("{} --placement-probe=off --json {}/r.json", kSweep, dir.string()));
  ASSERT_EQ(o.code, 0) << o.err;
  const auto doc = nlohmann::json::parse(slurp(dir / "r.json"));
  for (const auto& row : doc["results"]) EXPECT_TRUE(row.at("placement").is_null());
}

TEST(PlacementProbe, ABadValueIsOneLine) {
  const Outcome o = comops("--placement-probe=maybe");
  EXPECT_EQ(o.code, 2);
  EXPECT_EQ(o.err, "comops: error: --placement-probe: maybe not in {on,off}\n");
}

}  // namespace
