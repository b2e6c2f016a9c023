// The ratio table of bench/swcc_state_latency (bench/swcc_state_ratios.hpp): each ratio divides
// the right benchmarks' times, at the same block size or over the sc run, and a missing time
// gives null / "-", never a number.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "bench/swcc_state_ratios.hpp"

namespace swcc_state {
namespace {

TEST(SwccStateRatios, NamesFollowTheBenchmarkScheme) {
  EXPECT_EQ(bench_name("home_fast", "read", 64, false), "state/home_fast/read/64");
  EXPECT_EQ(bench_name("remote", "write", 64, true), "state/remote/write/sc");
}

TEST(SwccStateRatios, EachRatioDividesItsCases) {
  const std::map<std::string, double> ns = {
      {"state/home/read/sc", 10},
      {"state/home/write/sc", 20},
      {"state/remote/read/sc", 1000},
      {"state/remote/write/sc", 2000},
      {"state/home_entry/read/8", 30},
      {"state/home_entry/write/8", 100},
      {"state/home_fast/read/8", 12},
      {"state/home_fast/write/8", 25},
      {"state/remote_hit_shared/read/8", 5},
      {"state/remote_hit_modified/write/8", 8},
      {"state/remote_hit_shared/write/8", 999999},  // an upgrade, not the write's hit
      {"state/remote_miss_clean/read/8", 1500},
      {"state/remote_miss_clean/write/8", 4000},
      {"state/remote_miss_flush/read/8", 4500},
      {"state/remote_miss_flush/write/8", 6000},
      {"state/home_entry/read/64", 40},  // block 64: only this ratio's numerator, no denominator
  };
  const nlohmann::json j = ratio_json(ns);
  ASSERT_EQ(j["ratios"].size(), 5u);
  auto ours = [&](int row, const char* op, const char* block) {
    return j["ratios"][row]["ours"][op][block];
  };
  EXPECT_EQ(j["ratios"][0]["ratio"], "local swcc / local sc");
  EXPECT_DOUBLE_EQ(ours(0, "read", "8").get<double>(), 3.0);
  EXPECT_DOUBLE_EQ(ours(0, "write", "8").get<double>(), 5.0);
  EXPECT_DOUBLE_EQ(ours(0, "read", "64").get<double>(), 4.0);  // over sc, not over block 64
  EXPECT_TRUE(ours(0, "write", "64").is_null());
  EXPECT_TRUE(ours(0, "read", "4096").is_null());
  EXPECT_EQ(j["ratios"][1]["ratio"], "fast path / entry access");
  EXPECT_DOUBLE_EQ(ours(1, "read", "8").get<double>(), 0.4);
  EXPECT_DOUBLE_EQ(ours(1, "write", "8").get<double>(), 0.25);
  EXPECT_TRUE(ours(1, "read", "64").is_null());  // home_fast/read/64 missing
  EXPECT_EQ(j["ratios"][2]["ratio"], "remote hit / sc remote");
  EXPECT_DOUBLE_EQ(ours(2, "read", "8").get<double>(), 0.005);
  EXPECT_DOUBLE_EQ(ours(2, "write", "8").get<double>(), 0.004);
  EXPECT_EQ(j["ratios"][3]["ratio"], "clean miss / sc remote");
  EXPECT_DOUBLE_EQ(ours(3, "read", "8").get<double>(), 1.5);
  EXPECT_DOUBLE_EQ(ours(3, "write", "8").get<double>(), 2.0);
  EXPECT_EQ(j["ratios"][4]["ratio"], "three-party miss / clean miss");
  EXPECT_DOUBLE_EQ(ours(4, "read", "8").get<double>(), 3.0);
  EXPECT_DOUBLE_EQ(ours(4, "write", "8").get<double>(), 1.5);
  EXPECT_EQ(j["times"]["state/home/read/sc"], 10);
  EXPECT_EQ(j["ratios"][3]["paper"], "~1.7 (50/30 us)");

  // The text table: one line per ratio after the header, "-" where a time is missing.
  const std::string t = ratio_table(ns);
  const auto line = t.substr(t.find("fast path / entry access"));
  const auto first = line.substr(0, line.find('\n'));
  EXPECT_NE(first.find("0.4"), std::string::npos) << first;
  EXPECT_NE(first.find(" -"), std::string::npos) << first;
}

}  // namespace
}  // namespace swcc_state
