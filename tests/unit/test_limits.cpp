// Unit tests of the machine limits with their ranges (harness/machine/limits.hpp): the JSON round
// trip, the shape of the measured figures, which limit bounds which op
// (harness/report/limit_check.hpp), and the limit rows, flags and notes of the tables and the CSV.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "comops/op.hpp"
#include "harness/machine/limits.hpp"
#include "harness/ops/op_queries.hpp"
#include "harness/plan/config.hpp"
#include "harness/report/limit_check.hpp"
#include "harness/report/reporter.hpp"
#include "harness/report/row.hpp"
#include "harness/runtime/placement.hpp"
#include "temp_dir.hpp"

namespace comops {
namespace {

constexpr std::size_t kMiB = 1u << 20;

// memcpy 23.1 [21.0 .. 24.2] GB/s and 2 cores at once 40.2 [38.0 .. 41.5] GB/s at 1 MiB.
MachineLimits ranged_limits() {
  MachineLimits l;
  l.cacheline_rtt_us = 0.25;
  l.cacheline_rtt_range_us = {0.2, 0.3};
  l.core_a = 0;
  l.core_b = 1;
  l.memcpy_GBps = {{8, 3.0}, {kMiB, 23.1}};
  l.memcpy_range_GBps = {{8, {2.5, 3.5}}, {kMiB, {21.0, 24.2}}};
  l.aggregate_memcpy = {{8, {2, 5.0, {4.5, 5.5}}}, {kMiB, {2, 40.2, {38.0, 41.5}}}};
  return l;
}

// A point of `op` with np participants at `bytes` whose headline time is time_us.
PointResult point(const std::string& backend, OpKind op, int np, std::size_t bytes,
                  double time_us) {
  PointResult p;
  p.backend = backend;
  p.args.op = op;
  p.args.np = np;
  p.args.bytes = bytes;
  p.args.count = bytes / kElemBytes;
  p.iterations = 10;
  p.warmup = 1;
  p.repetitions = 2;
  p.time_min_us = p.time_avg_us = p.time_max_us = time_us;
  p.rep_max_us = {time_us, time_us};
  for (int i = 0; i < np; ++i) {
    p.cores.push_back(i);
    p.hosts.push_back("vm");
  }
  if (op == OpKind::kPingpong) p.pair = Pair::kIntra;
  return p;
}

// The headline time that gives `bw` GB/s for a point of 1 MiB whose bandwidth counts 1 MiB.
double time_for(double bw_GBps, double counted_bytes = kMiB) {
  return counted_bytes / bw_GBps / 1e3;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream ss(text);
  for (std::string line; std::getline(ss, line);) lines.push_back(line);
  return lines;
}

// JSON --------------------------------------------------------------------------------------

TEST(LimitsJson, WritesRangesAndTheAggregateCopy) {
  const auto j = to_json(ranged_limits());
  EXPECT_DOUBLE_EQ(j["cacheline_rtt_us"].get<double>(), 0.25);
  EXPECT_EQ(j["cacheline_rtt_us_range"], nlohmann::json({0.2, 0.3}));
  EXPECT_EQ(j["cacheline_cores"], nlohmann::json({0, 1}));
  ASSERT_EQ(j["memcpy"].size(), 2u);
  EXPECT_EQ(j["memcpy"][1],
            nlohmann::json({{"bytes", kMiB}, {"bw_GBps", 23.1}, {"bw_GBps_range", {21.0, 24.2}}}));
  ASSERT_EQ(j["aggregate_memcpy"].size(), 2u);
  EXPECT_EQ(j["aggregate_memcpy"][0],
            nlohmann::json(
                {{"bytes", 8}, {"bw_GBps", 5.0}, {"bw_GBps_range", {4.5, 5.5}}, {"threads", 2}}));
  EXPECT_EQ(j["aggregate_memcpy"][1]["bytes"], kMiB);
}

TEST(LimitsJson, RoundTripKeepsEveryRange) {
  const MachineLimits l = ranged_limits();
  const MachineLimits back = limits_from_json(to_json(l));
  EXPECT_EQ(back.cacheline_rtt_us, l.cacheline_rtt_us);
  EXPECT_EQ(back.cacheline_rtt_range_us, (Range{0.2, 0.3}));
  EXPECT_EQ(back.core_a, 0);
  EXPECT_EQ(back.core_b, 1);
  EXPECT_EQ(back.memcpy_GBps, l.memcpy_GBps);
  EXPECT_EQ(back.memcpy_range_GBps, l.memcpy_range_GBps);
  EXPECT_EQ(back.aggregate_memcpy, l.aggregate_memcpy);
  EXPECT_EQ(to_json(back), to_json(l));
}

TEST(LimitsJson, NothingMeasuredIsNullAndEmpty) {
  const auto j = to_json(MachineLimits{});
  EXPECT_TRUE(j["cacheline_rtt_us"].is_null());
  EXPECT_TRUE(j["cacheline_rtt_us_range"].is_null());
  EXPECT_EQ(j["memcpy"], nlohmann::json::array());
  EXPECT_EQ(j["aggregate_memcpy"], nlohmann::json::array());
  const MachineLimits back = limits_from_json(j);
  EXPECT_FALSE(back.cacheline_rtt_us.has_value());
  EXPECT_TRUE(back.memcpy_GBps.empty());
  EXPECT_TRUE(back.aggregate_memcpy.empty());
}

TEST(LimitsJson, ForeignDocumentsThrow) {
  auto j = to_json(ranged_limits());
  j.erase("aggregate_memcpy");
  EXPECT_THROW(limits_from_json(j), nlohmann::json::exception);
  j = to_json(ranged_limits());
  j["memcpy"][0]["bw_GBps_range"] = nlohmann::json::array({1.0});
  EXPECT_THROW(limits_from_json(j), nlohmann::json::exception);
  j = to_json(ranged_limits());
  j["cacheline_rtt_us_range"] = 0.2;
  EXPECT_THROW(limits_from_json(j), nlohmann::json::exception);
}

// Measuring ---------------------------------------------------------------------------------

void expect_ordered(const Range& r, double median, const std::string& what) {
  EXPECT_GT(r.min, 0) << what;
  EXPECT_LE(r.min, median) << what;
  EXPECT_LE(median, r.max) << what;
}

TEST(LimitsMeasure, SpreadOfSamples) {
  const Spread s = spread_of({3.0, 1.0, 2.0, 5.0, 4.0});
  EXPECT_DOUBLE_EQ(s.median, 3.0);
  EXPECT_EQ(s.range, (Range{1.0, 5.0}));
}

TEST(LimitsMeasure, CopiesPerRepetition) {
  EXPECT_EQ(limit_copies_for(8), 10000);       // capped
  EXPECT_EQ(limit_copies_for(64 << 10), 128);  // 8 MiB / 64 KiB
  EXPECT_EQ(limit_copies_for(8u << 20), 1);
  EXPECT_EQ(limit_copies_for(64u << 20), 1);  // at least 1
}

TEST(LimitsMeasure, AggregateCopyHasOneEntryPerSizeWithItsThreads) {
  const Pinning pinning(BindPolicy::kCompact);
  MachineLimits l;
  measure_aggregate_memcpy(pinning, {4096, 64 << 10}, 3, l);
  ASSERT_EQ(l.aggregate_memcpy.size(), 2u);
  for (const auto& [bytes, a] : l.aggregate_memcpy) {
    EXPECT_EQ(a.threads, 3) << bytes;
    expect_ordered(a.range_GBps, a.bw_GBps, "aggregate at " + std::to_string(bytes));
  }
  EXPECT_TRUE(l.memcpy_GBps.empty());  // only the aggregate was asked for
}

TEST(LimitsMeasure, NoAggregateWithOneThread) {
  const Pinning pinning(BindPolicy::kCompact);
  MachineLimits l;
  measure_aggregate_memcpy(pinning, {4096}, 1, l);
  EXPECT_TRUE(l.aggregate_memcpy.empty());
  EXPECT_EQ(aggregate_threads(pinning, 1), 1);
  EXPECT_EQ(aggregate_threads(pinning, 1000), pinning.cores());  // at most the cores
}

TEST(LimitsMeasure, MemcpyAndCacheLineHaveOrderedRanges) {
  const Pinning pinning(BindPolicy::kCompact);
  MachineLimits l;
  measure_memcpy(pinning, {8, 4096}, l);
  ASSERT_EQ(l.memcpy_GBps.size(), 2u);
  ASSERT_EQ(l.memcpy_range_GBps.size(), 2u);
  for (const auto& [bytes, bw] : l.memcpy_GBps)
    expect_ordered(l.memcpy_range_GBps.at(bytes), bw, "memcpy at " + std::to_string(bytes));
  measure_cacheline(pinning, l);
  if (pinning.cores() < 2) {
    EXPECT_FALSE(l.cacheline_rtt_us.has_value());
    GTEST_SKIP() << "one core: no cache-line round trip";
  }
  ASSERT_TRUE(l.cacheline_rtt_us.has_value());
  expect_ordered(l.cacheline_rtt_range_us, *l.cacheline_rtt_us, "cache-line round trip");
}

// Which limit bounds which op ----------------------------------------------------------------

TEST(LimitCheck, SplitCopyIsBoundedByTheAggregateNotTheSingleCopy) {
  const MachineLimits l = ranged_limits();
  // Above the single-copy memcpy (24.2 at most) but within 2 cores at once (41.5 at most).
  const auto within = point("shm-direct", OpKind::kBroadcast, 2, kMiB, time_for(41.0));
  EXPECT_EQ(beyond_limit(within, 41.0, l), std::nullopt);
  const auto c = bw_ceiling(within, l);
  ASSERT_TRUE(c.has_value());
  EXPECT_TRUE(c->aggregate);
  EXPECT_DOUBLE_EQ(c->bw_GBps, 41.5);  // the top of the aggregate's range
  EXPECT_EQ(c->cores, 2);
  EXPECT_EQ(c->shared_by, 1);
  EXPECT_EQ(beyond_limit(within, 65.5, l),
            "65.5 GB/s is above its limit 41.5 GB/s, the aggregate copy bandwidth of 2 cores "
            "copying at once; its data likely stays in cache between iterations");
}

TEST(LimitCheck, TheTopOfTheRangeDecides) {
  const MachineLimits l = ranged_limits();
  const auto p = point("mpi", OpKind::kReduceSum, 2, kMiB, 1.0);
  EXPECT_EQ(beyond_limit(p, 41.0, l), std::nullopt);  // above the median 40.2, within its range
  EXPECT_NE(beyond_limit(p, 41.6, l), std::nullopt);
}

TEST(LimitCheck, BroadcastShareTheCeilingAmongItsReceivers) {
  const MachineLimits l = ranged_limits();
  const auto p = point("mpi", OpKind::kBroadcast, 4, kMiB, 1.0);
  const auto c = bw_ceiling(p, l);
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->shared_by, 3);
  EXPECT_DOUBLE_EQ(c->bw_GBps, 41.5 / 3);
  EXPECT_EQ(beyond_limit(p, 13.8, l), std::nullopt);
  EXPECT_EQ(beyond_limit(p, 20.0, l),
            "20 GB/s is above its limit 13.8 GB/s, the aggregate copy bandwidth 41.5 GB/s of 2 "
            "cores copying at once shared by 3 receivers' copies; its data likely stays in cache "
            "between iterations");
}

TEST(LimitCheck, PingpongGatherScatterAndReduceAreNotShared) {
  const MachineLimits l = ranged_limits();
  for (OpKind op : {OpKind::kPingpong, OpKind::kGather, OpKind::kScatter, OpKind::kReduceMax}) {
    const auto c = bw_ceiling(point("mpi", op, 4, kMiB, 1.0), l);
    ASSERT_TRUE(c.has_value()) << op_name(op);
    EXPECT_EQ(c->shared_by, 1) << op_name(op);
    EXPECT_DOUBLE_EQ(c->bw_GBps, 41.5) << op_name(op);
  }
}

TEST(LimitCheck, FewParticipantsAreBoundedByTheirOwnCopies) {
  MachineLimits l = ranged_limits();
  l.aggregate_memcpy[kMiB] = {8, 90.0, {85.0, 95.0}};  // 8 cores: more than 2 x 24.2
  const auto p = point("shm-direct", OpKind::kPingpong, 2, kMiB, 1.0);
  const auto c = bw_ceiling(p, l);
  ASSERT_TRUE(c.has_value());
  EXPECT_FALSE(c->aggregate);
  EXPECT_DOUBLE_EQ(c->bw_GBps, 2 * 24.2);
  EXPECT_EQ(beyond_limit(p, 50.0, l),
            "50 GB/s is above its limit 48.4 GB/s, 2 participants copying at once at the "
            "single-copy memcpy 24.2 GB/s each; its data likely stays in cache between "
            "iterations");
  l.aggregate_memcpy.clear();  // not measured: the single copy alone
  EXPECT_DOUBLE_EQ(bw_ceiling(p, l)->bw_GBps, 2 * 24.2);
  l.memcpy_range_GBps.clear();  // no range (an older document): the median
  EXPECT_DOUBLE_EQ(bw_ceiling(p, l)->bw_GBps, 2 * 23.1);
}

TEST(LimitCheck, NothingToBound) {
  const MachineLimits l = ranged_limits();
  EXPECT_EQ(bw_ceiling(point("mpi", OpKind::kBarrier, 2, 0, 1.0), l), std::nullopt);
  EXPECT_EQ(bw_ceiling(point("mpi", OpKind::kBroadcast, 1, kMiB, 1.0), l), std::nullopt);
  EXPECT_EQ(bw_ceiling(point("mpi", OpKind::kGather, 2, 4096, 1.0), l), std::nullopt);  // no size
  auto inter = point("mpi", OpKind::kPingpong, 2, kMiB, 1.0);
  inter.nodes = 2;  // the limits are one node's
  EXPECT_EQ(bw_ceiling(inter, l), std::nullopt);
  EXPECT_EQ(beyond_limit(inter, 1000.0, l), std::nullopt);
}

// Rows --------------------------------------------------------------------------------------

TEST(LimitRow, CarriesTheAggregateAndTheExplanation) {
  const MachineLimits l = ranged_limits();
  const Row beyond = make_row(point("shm-direct", OpKind::kBroadcast, 2, kMiB, 16.0), l, false,
                              std::nullopt, 1.0, true, false);
  ASSERT_TRUE(beyond.aggregate_GBps.has_value());
  EXPECT_DOUBLE_EQ(*beyond.aggregate_GBps, 40.2);
  ASSERT_TRUE(beyond.beyond_limit.has_value());
  EXPECT_EQ(beyond.beyond_limit->rfind("65.5 GB/s is above its limit 41.5 GB/s", 0), 0u);
  const auto j = to_json(beyond);
  EXPECT_DOUBLE_EQ(j["aggregate_GBps"].get<double>(), 40.2);
  EXPECT_EQ(j["beyond_limit"], *beyond.beyond_limit);

  const auto plain = to_json(make_row(point("mpi", OpKind::kBroadcast, 2, kMiB, 40.0), l, false,
                                      std::nullopt, 1.0, true, false));
  EXPECT_TRUE(plain["beyond_limit"].is_null());
  const auto barrier = to_json(make_row(point("mpi", OpKind::kBarrier, 2, 0, 1.0), l, false,
                                        std::nullopt, 1.0, false, true));
  EXPECT_TRUE(barrier["aggregate_GBps"].is_null());
  EXPECT_TRUE(barrier["beyond_limit"].is_null());
}

TEST(LimitRow, CsvHasTheNewColumnsQuoted) {
  comops_test::TempDir dir;
  const std::string path = dir.file("r.csv");
  const MachineLimits l = ranged_limits();
  auto rep = make_csv_reporter(path);
  rep->add(make_row(point("shm-direct", OpKind::kBroadcast, 2, kMiB, 16.0), l, false, std::nullopt,
                    1.0, true, false));
  rep->add(make_row(point("mpi", OpKind::kBarrier, 2, 0, 1.0), l, false, std::nullopt, 1.0, false,
                    true));
  rep->finish();
  const auto lines = lines_of(comops_test::read_text(path));
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_NE(lines[0].find(",pair,aggregate_GBps,beyond_limit,"), std::string::npos) << lines[0];
  const std::string tail =
      ",\"vm vm\",,40.2,\"65.5 GB/s is above its limit 41.5 GB/s, the aggregate copy bandwidth of "
      "2 cores copying at once; its data likely stays in cache between iterations\",1,,,,,,,";
  ASSERT_GT(lines[1].size(), tail.size());
  EXPECT_EQ(lines[1].substr(lines[1].size() - tail.size()), tail) << lines[1];
  EXPECT_EQ(lines[2].substr(lines[2].size() - 11), ",,,1,,,,,,,") << lines[2];  // neither: empty
}

// Tables ------------------------------------------------------------------------------------

TEST(LimitTable, LimitRowsShowRangesAndNotesExplainFlaggedRows) {
  Config config;
  config.ops = {OpKind::kPingpong, OpKind::kBroadcast};
  config.np_list = {2};
  config.size_np = 2;
  config.np_bytes = kMiB;
  config.sizes = {8, kMiB};
  const MachineLimits l = ranged_limits();
  auto rep = make_table_reporter("", config, l, single_node_map(2));
  rep->add(make_row(point("mpi", OpKind::kPingpong, 2, 8, 2.0), l, false, std::nullopt, 1.0, true,
                    false));
  rep->add(make_row(point("shm-direct", OpKind::kBroadcast, 2, kMiB, 16.0), l, false, std::nullopt,
                    1.0, true, true));  // 65.5 GB/s
  rep->add(make_row(point("mpi", OpKind::kBroadcast, 2, kMiB, 40.0), l, false, std::nullopt, 1.0,
                    true, true));  // 26.2 GB/s: above one core, within two
  testing::internal::CaptureStdout();
  rep->finish();
  const std::string text = testing::internal::GetCapturedStdout();

  const std::string memcpy_1m =
      "     1M  [memcpy]            1     45.4        [43.3 .. 49.9]     23.1";
  const std::string aggregate_1m =
      "     1M  [aggregate x2]      1     52.2        [50.5 .. 55.2]     40.2";
  const std::string cacheline_8 =
      "      8  [cache-line]        1  0.25000  [0.20000 .. 0.30000]        -";
  const std::string note =
      "note: shm-direct broadcast np=2 1M: 65.5 GB/s is above its limit 41.5 GB/s, the aggregate "
      "copy bandwidth of 2 cores copying at once; its data likely stays in cache between "
      "iterations";
  const std::string flagged_size_row =
      "     1M  shm-direct      1     16.0    16.0    16.0        [16.0 .. 16.0]     65.5  L";
  const std::string flagged_np_row =
      "   2  shm-direct      1     16.0    16.0    16.0        [16.0 .. 16.0]     65.5  L";
  const std::string mpi_np_row =
      "   2  mpi             1     40.0    40.0    40.0        [40.0 .. 40.0]     26.2";
  int memcpy_rows = 0, aggregate_rows = 0, cacheline_rows = 0, notes = 0, flagged = 0, mpi = 0;
  for (const auto& line : lines_of(text)) {
    memcpy_rows += line == memcpy_1m;
    aggregate_rows += line == aggregate_1m;
    cacheline_rows += line == cacheline_8;
    notes += line == note;
    flagged += line == flagged_size_row || line == flagged_np_row;
    mpi += line == mpi_np_row;  // within its limit: no flag
  }
  EXPECT_EQ(memcpy_rows, 2) << text;  // the broadcast size and np tables (ping-pong has no 1M)
  EXPECT_EQ(aggregate_rows, 2) << text;
  EXPECT_EQ(cacheline_rows, 1) << text;
  EXPECT_EQ(flagged, 2) << text;  // size and np table
  EXPECT_EQ(mpi, 1) << text;
  EXPECT_EQ(notes, 2) << text;  // one under each
  // The summary flags the row beside its time.
  EXPECT_NE(text.find("   1M      16.0 L  40.0  shm-direct   2.50x       45.4\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("machine limits: cache-line round trip 0.250 us [0.200 .. 0.300] (cpus 0 "
                      "and 1); memcpy of one core and aggregate copy of 2 cores at once per size "
                      "below; limit rows show [min .. max] over repetitions\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find(", W = wrong results, L = beyond its machine limit (see the note)\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("note: mpi"), std::string::npos) << text;
}

}  // namespace
}  // namespace comops
