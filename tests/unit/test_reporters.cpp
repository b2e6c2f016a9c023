// Unit tests of result rows (harness/report/row.hpp) and the four reporters (CSV, JSON, Google
// Benchmark JSON read back by Google Benchmark's own loader, readable tables), writing into a
// temporary directory.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "comops/op.hpp"
#include "harness/machine/limits.hpp"
#include "harness/machine/steal.hpp"
#include "harness/plan/config.hpp"
#include "harness/report/busy_note.hpp"
#include "harness/report/reporter.hpp"
#include "harness/report/row.hpp"
#include "harness/report/summary.hpp"
#include "harness/runtime/placement.hpp"
#include "temp_dir.hpp"

namespace comops {
namespace {

namespace fs = std::filesystem;

using comops_test::read_text;
using comops_test::TempDir;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream ss(text);
  for (std::string line; std::getline(ss, line);) lines.push_back(line);
  return lines;
}

PointResult pingpong_point() {
  PointResult p;
  p.backend = "mpi";
  p.args.op = OpKind::kPingpong;
  p.args.np = 2;
  p.args.bytes = 8;
  p.args.count = 1;
  p.iterations = 10000;
  p.warmup = 1000;
  p.repetitions = 3;
  p.time_min_us = 1.0;
  p.time_avg_us = 1.5;
  p.time_max_us = 2.0;
  p.rep_max_us = {2.0, 1.5, 2.5};
  p.wrong = 0;
  p.cores = {0, 1};
  p.hosts = {"vm", "vm"};
  p.pair = Pair::kIntra;
  return p;
}

PointResult gather_point() {
  PointResult p;
  p.backend = "shm-direct";
  p.args.op = OpKind::kGather;
  p.args.np = 4;
  p.args.bytes = 1024;
  p.args.count = 128;
  p.iterations = 20;
  p.warmup = 2;
  p.repetitions = 3;
  p.time_min_us = 8.0;
  p.time_avg_us = 9.0;
  p.time_max_us = 10.0;
  p.rep_max_us = {10.0, 12.0, 8.0};
  p.wrong = 3;
  p.cores = {0, 1, 0, 1};
  p.hosts = {"vm", "vm", "vm", "vm"};
  p.counters = {{"hits", 10}, {"misses", 2}};
  p.cpu_steal_us = 30000;  // 3 ticks at USER_HZ 100: not contended in its 0.5 s (2 ticks < 5 %)
  p.cpu_steal_window_us = 500000;
  return p;
}

PointResult barrier_point() {
  PointResult p;
  p.backend = "mpi";
  p.args.op = OpKind::kBarrier;
  p.args.np = 2;
  p.iterations = 10000;
  p.warmup = 1000;
  p.repetitions = 3;
  p.time_min_us = 0.5;
  p.time_avg_us = 0.5;
  p.time_max_us = 0.5;
  p.rep_max_us = {0.5, 0.5, 0.5};
  p.cores = {0, 1};
  p.hosts = {"vm", "vm"};
  return p;
}

MachineLimits some_limits() {
  MachineLimits l;
  l.cacheline_rtt_us = 0.25;
  l.cacheline_rtt_range_us = {0.2, 0.3};
  l.core_a = 0;
  l.core_b = 1;
  l.memcpy_GBps = {{8, 3.0}, {1024, 20.0}};
  return l;
}

// make_row ----------------------------------------------------------------------------------

TEST(MakeRow, PingpongDerivedValues) {
  const Row r = make_row(pingpong_point(), some_limits(), false, 50.0, 10000.0, true, false);
  ASSERT_TRUE(r.bw_GBps.has_value());
  EXPECT_DOUBLE_EQ(*r.bw_GBps, 2 * 8 / 2.0 / 1e3);  // 2 x size / RTT
  ASSERT_TRUE(r.latency_us.has_value());
  EXPECT_DOUBLE_EQ(*r.latency_us, 1.0);  // RTT / 2
  ASSERT_TRUE(r.rate_GBps.has_value());
  EXPECT_DOUBLE_EQ(*r.rate_GBps, 8 / 2.0 / 1e3);  // size / RTT
  ASSERT_TRUE(r.memcpy_GBps.has_value());
  EXPECT_DOUBLE_EQ(*r.memcpy_GBps, 3.0);
  EXPECT_FALSE(r.oversubscribed);
  ASSERT_TRUE(r.cpu_stall_us.has_value());
  EXPECT_DOUBLE_EQ(*r.cpu_stall_us, 50.0);
  EXPECT_FALSE(r.contended);  // 0.5 % of the wall time
  EXPECT_TRUE(r.in_size_table);
  EXPECT_FALSE(r.in_np_table);
  EXPECT_EQ(r.point.backend, "mpi");
}

TEST(MakeRow, CollectiveBandwidthAndNoPingpongFields) {
  const Row r = make_row(gather_point(), some_limits(), true, std::nullopt, 100.0, false, true);
  ASSERT_TRUE(r.bw_GBps.has_value());
  EXPECT_DOUBLE_EQ(*r.bw_GBps, 3 * 1024 / 10.0 / 1e3);  // (np-1) x size / time
  EXPECT_FALSE(r.latency_us.has_value());
  EXPECT_FALSE(r.rate_GBps.has_value());
  ASSERT_TRUE(r.memcpy_GBps.has_value());
  EXPECT_DOUBLE_EQ(*r.memcpy_GBps, 20.0);
  EXPECT_TRUE(r.oversubscribed);
  EXPECT_FALSE(r.cpu_stall_us.has_value());
  EXPECT_FALSE(r.contended);

  PointResult b = gather_point();
  b.args.op = OpKind::kBroadcast;
  EXPECT_DOUBLE_EQ(*make_row(b, {}, false, {}, 0, false, true).bw_GBps, 1024 / 10.0 / 1e3);
}

TEST(MakeRow, BarrierHasNoBandwidth) {
  const Row r = make_row(barrier_point(), some_limits(), false, 0.0, 100.0, false, true);
  EXPECT_FALSE(r.bw_GBps.has_value());
  EXPECT_FALSE(r.latency_us.has_value());
  EXPECT_FALSE(r.rate_GBps.has_value());
  EXPECT_FALSE(r.memcpy_GBps.has_value());  // no limit at 0 bytes
}

TEST(MakeRow, ZeroTimeGivesNoBandwidth) {
  PointResult p = pingpong_point();
  p.time_max_us = 0;
  const Row r = make_row(p, {}, false, {}, 0, true, false);
  EXPECT_FALSE(r.bw_GBps.has_value());
  EXPECT_FALSE(r.latency_us.has_value());
  EXPECT_FALSE(r.rate_GBps.has_value());
}

TEST(MakeRow, ContendedAboveFivePercentStall) {
  const auto p = pingpong_point();
  EXPECT_TRUE(make_row(p, {}, false, 600.0, 10000.0, true, false).contended);
  EXPECT_TRUE(make_row(p, {}, false, 501.0, 10000.0, true, false).contended);
  EXPECT_FALSE(make_row(p, {}, false, 500.0, 10000.0, true, false).contended);  // not above
  EXPECT_FALSE(make_row(p, {}, false, 499.0, 10000.0, true, false).contended);
  EXPECT_FALSE(make_row(p, {}, false, std::nullopt, 10000.0, true, false).contended);
  EXPECT_FALSE(make_row(p, {}, false, 600.0, 0.0, true, false).contended);
}

// A point whose participants' CPUs lost `ticks` clock ticks of steal in a window of `window_ticks`.
PointResult stolen_point(int ticks, int window_ticks) {
  PointResult p = pingpong_point();
  p.cpu_steal_us = ticks * clock_tick_us();
  p.cpu_steal_window_us = window_ticks * clock_tick_us();
  return p;
}

TEST(MakeRow, ContendedAboveFivePercentSteal) {
  // the steal less one tick (the counter's resolution) against 5 % of the window, with no stall
  // and with a small one
  for (const std::optional<double> stall : {std::optional<double>(), std::optional<double>(0.0)}) {
    EXPECT_TRUE(make_row(stolen_point(4, 50), {}, false, stall, 1e6, true, false).contended);
    EXPECT_FALSE(make_row(stolen_point(3, 50), {}, false, stall, 1e6, true, false).contended);
    EXPECT_TRUE(make_row(stolen_point(7, 100), {}, false, stall, 1e6, true, false).contended);
    EXPECT_FALSE(make_row(stolen_point(6, 100), {}, false, stall, 1e6, true, false).contended);
    EXPECT_FALSE(make_row(stolen_point(1, 1), {}, false, stall, 1e6, true, false).contended);
    EXPECT_FALSE(make_row(stolen_point(0, 50), {}, false, stall, 1e6, true, false).contended);
  }
  EXPECT_FALSE(make_row(stolen_point(10, 0), {}, false, 0.0, 1e6, true, false).contended);
  // a stall alone still flags it, and the flag is the table's C
  const Row both = make_row(stolen_point(0, 50), {}, false, 600.0, 10000.0, true, false);
  EXPECT_TRUE(both.contended);
  EXPECT_EQ(flags_of(make_row(stolen_point(4, 50), {}, false, 0.0, 1e6, true, false)), "C");
}

TEST(PointName, BackendOpNpBytes) {
  EXPECT_EQ(point_name(pingpong_point()), "mpi/pingpong/np:2/bytes:8");
  EXPECT_EQ(point_name(gather_point()), "shm-direct/gather/np:4/bytes:1024");
}

// CSV ---------------------------------------------------------------------------------------

constexpr const char* kCsvHeader =
    "backend,op,np,bytes,iterations,repetitions,time_min_us,time_avg_us,time_max_us,"
    "time_rep_min_us,time_rep_max_us,bw_GBps,latency_us,rate_GBps,memcpy_GBps,wrong,"
    "oversubscribed,contended,cpu_stall_us,cores,nodes,hosts,pair,aggregate_GBps,beyond_limit,"
    "cpu_stall_window_us,p50_us,p90_us,p99_us,pmax_us,app,cpu_steal_us,cpu_steal_window_us";

TEST(CsvReporter, HeaderAndRows) {
  TempDir dir;
  const std::string path = dir.file("results.csv");
  auto rep = make_csv_reporter(path);
  EXPECT_EQ(read_text(path), std::string(kCsvHeader) + "\n");  // header on disk at once

  rep->add(make_row(pingpong_point(), some_limits(), false, 50.0, 10000.0, true, false));
  auto lines = lines_of(read_text(path));  // each row is on disk when add returns
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[1],
            "mpi,pingpong,2,8,10000,3,1,1.5,2,1.5,2.5,0.008,1,0.004,3,0,0,0,50,\"0 1\",1,\"vm "
            "vm\",intra,,,10000,,,,,,,");

  PointResult gather = gather_point();
  gather.percentiles_us = Percentiles{9.5, 11, 12.25, 30};
  rep->add(make_row(gather, some_limits(), true, 900.0, 10000.0, false, true));
  rep->add(make_row(barrier_point(), {}, false, std::nullopt, 100.0, false, true));
  rep->finish();
  lines = lines_of(read_text(path));
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0], kCsvHeader);
  EXPECT_EQ(lines[2],
            "shm-direct,gather,4,1024,20,3,8,9,10,8,12,0.3072,,,20,3,1,1,900,\"0 1 0 1\",1,\"vm vm "
            "vm vm\",,,,10000,9.5,11,12.25,30,,30000,500000");
  EXPECT_EQ(
      lines[3],
      "mpi,barrier,2,0,10000,3,0.5,0.5,0.5,0.5,0.5,,,,,0,0,0,,\"0 1\",1,\"vm vm\",,,,100,,,,,,,");

  // Every line has as many fields as the header (the cores field is one quoted field).
  for (const auto& line : lines) {
    int commas = 0;
    bool quoted = false;
    for (char ch : line) {
      if (ch == '"') quoted = !quoted;
      if (ch == ',' && !quoted) ++commas;
    }
    EXPECT_EQ(commas, 32) << line;
  }
}

TEST(CsvReporter, UnwritablePathThrowsRuntimeError) {
  try {
    make_csv_reporter("/nonexistent-dir/results.csv");
    ADD_FAILURE() << "no RuntimeError";
  } catch (const RuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-dir/results.csv"), std::string::npos);
  }
}

// JSON --------------------------------------------------------------------------------------

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

// Every field of the ping-pong entry of make_row(pingpong_point(), some_limits(), ...).
void expect_pingpong_entry(const nlohmann::json& r) {
  EXPECT_EQ(r["backend"], "mpi");
  EXPECT_EQ(r["op"], "pingpong");
  EXPECT_EQ(r["np"], 2);
  EXPECT_EQ(r["bytes"], 8);
  EXPECT_EQ(r["iterations"], 10000);
  EXPECT_EQ(r["warmup"], 1000);
  EXPECT_EQ(r["repetitions"], 3);
  EXPECT_DOUBLE_EQ(r["time_us"]["min"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(r["time_us"]["avg"].get<double>(), 1.5);
  EXPECT_DOUBLE_EQ(r["time_us"]["max"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(r["time_us_reps"]["median"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(r["time_us_reps"]["min"].get<double>(), 1.5);
  EXPECT_DOUBLE_EQ(r["time_us_reps"]["max"].get<double>(), 2.5);
  EXPECT_EQ(r["rep_times_us"], (std::vector<double>{2.0, 1.5, 2.5}));
  EXPECT_DOUBLE_EQ(r["bw_GBps"].get<double>(), 0.008);
  EXPECT_DOUBLE_EQ(r["latency_us"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(r["rate_GBps"].get<double>(), 0.004);
  EXPECT_DOUBLE_EQ(r["memcpy_GBps"].get<double>(), 3.0);
  EXPECT_EQ(r["wrong"], 0);
  EXPECT_EQ(r["oversubscribed"], false);
  EXPECT_EQ(r["cores"], (std::vector<int>{0, 1}));
  EXPECT_DOUBLE_EQ(r["cpu_stall_us"].get<double>(), 50.0);
  EXPECT_DOUBLE_EQ(r["cpu_stall_window_us"].get<double>(), 10000.0);
  EXPECT_EQ(r["contended"], false);
  EXPECT_EQ(r["tables"], (std::vector<std::string>{"size", "np"}));
  EXPECT_FALSE(r.contains("counters"));
  EXPECT_EQ(r["hosts"], (std::vector<std::string>{"vm", "vm"}));
  EXPECT_EQ(r["nodes"], 1);
  EXPECT_EQ(r["pair"], "intra");
  EXPECT_TRUE(r["aggregate_GBps"].is_null());  // not measured in some_limits()
  EXPECT_TRUE(r["beyond_limit"].is_null());
  EXPECT_TRUE(r["cpu_steal_us"].is_null());
  EXPECT_TRUE(r["cpu_steal_window_us"].is_null());  // no steal, no window
  EXPECT_TRUE(r["placement"].is_null());            // no probe in make_row
  EXPECT_EQ(r.size(), 29u) << r.dump();             // the documented fields but counters
}

// The fields of the gather entry (shm-direct, 3 wrong, oversubscribed, steal, counters).
void expect_gather_entry(const nlohmann::json& g) {
  EXPECT_EQ(g["op"], "gather");
  EXPECT_EQ(g["backend"], "shm-direct");
  EXPECT_EQ(g["wrong"], 3);
  EXPECT_FALSE(g.contains("latency_us"));
  EXPECT_FALSE(g.contains("rate_GBps"));
  EXPECT_DOUBLE_EQ(g["bw_GBps"].get<double>(), 0.3072);
  EXPECT_TRUE(g["memcpy_GBps"].is_null());
  EXPECT_TRUE(g["cpu_stall_us"].is_null());
  EXPECT_TRUE(g["cpu_stall_window_us"].is_null());  // no stall, no window
  EXPECT_DOUBLE_EQ(g["cpu_steal_us"].get<double>(), 30000.0);
  EXPECT_DOUBLE_EQ(g["cpu_steal_window_us"].get<double>(), 500000.0);
  EXPECT_EQ(g["contended"], false);  // its steal less a tick is 4 % of the window
  EXPECT_EQ(g["oversubscribed"], true);
  EXPECT_EQ(g["tables"], (std::vector<std::string>{"np"}));
  EXPECT_EQ(g["counters"], (nlohmann::json{{"hits", 10}, {"misses", 2}}));
  EXPECT_DOUBLE_EQ(g["time_us_reps"]["median"].get<double>(), 10.0);
}

TEST(JsonReporter, DocumentWithEveryField) {
  TempDir dir;
  const std::string path = dir.file("results.json");
  const nlohmann::json context = {
      {"host", "vm"}, {"date", "2026-01-01T00:00:00Z"}, {"world_size", 2}};
  auto rep = make_json_reporter(path, context);
  {
    const auto doc = read_json(path);
    EXPECT_EQ(doc["comops_format"], 1);
    EXPECT_EQ(doc["context"], context);
    EXPECT_EQ(doc["results"], nlohmann::json::array());
  }

  rep->add(make_row(pingpong_point(), some_limits(), false, 50.0, 10000.0, true, true));
  {
    const auto doc = read_json(path);
    ASSERT_EQ(doc["results"].size(), 1u);
    const auto& r = doc["results"][0];
    expect_pingpong_entry(r);

    EXPECT_EQ(doc["context"]["host"], "vm");
    EXPECT_EQ(doc["context"]["bindings"]["mpi np=2"], (std::vector<int>{0, 1}));
    EXPECT_FALSE(doc["context"].contains("oversubscribed"));
  }

  rep->add(make_row(gather_point(), {}, true, std::nullopt, 100.0, false, true));
  const auto doc = read_json(path);
  ASSERT_EQ(doc["results"].size(), 2u);
  const auto& g = doc["results"][1];
  expect_gather_entry(g);
  EXPECT_EQ(doc["context"]["oversubscribed"], true);
  EXPECT_EQ(doc["context"]["bindings"]["shm-direct np=4"], (std::vector<int>{0, 1, 0, 1}));
  EXPECT_EQ(doc["context"]["world_size"], 2);
  EXPECT_EQ(doc["results"][0]["op"], "pingpong");

  rep->add(make_row(barrier_point(), {}, false, std::nullopt, 100.0, false, false));
  const auto b = read_json(path)["results"][2];
  EXPECT_TRUE(b["bw_GBps"].is_null());
  EXPECT_FALSE(b.contains("latency_us"));
  EXPECT_EQ(b["tables"], nlohmann::json::array());
  rep->finish();
  EXPECT_EQ(dir.names(), std::vector<std::string>{"results.json"});  // no temporary left
}

// Google Benchmark JSON ---------------------------------------------------------------------

TEST(GbenchReporter, EntriesPerRepetitionAndAggregates) {
  TempDir dir;
  const std::string path = dir.file("gbench.json");
  const nlohmann::json context = {
      {"date", "2026-01-01T00:00:00Z"}, {"host", "vm"},         {"topology", {{"pus", 2}}},
      {"comops_version", "0.1.0"},      {"git_sha", "abc1234"}, {"options", {{"sync", "barrier"}}}};
  auto rep = make_gbench_reporter(path, context);
  {
    const auto doc = read_json(path);
    EXPECT_EQ(doc["benchmarks"], nlohmann::json::array());
    EXPECT_EQ(doc["context"]["host_name"], "vm");
    EXPECT_EQ(doc["context"]["date"], "2026-01-01T00:00:00Z");
    EXPECT_EQ(doc["context"]["num_cpus"], 2);
    EXPECT_EQ(doc["context"]["executable"], "comops");
    EXPECT_EQ(doc["context"]["git_sha"], "abc1234");
    EXPECT_EQ(doc["context"]["comops_sync"], "barrier");
  }

  rep->add(make_row(pingpong_point(), {}, false, {}, 0, true, false));
  auto doc = read_json(path);
  auto& list = doc["benchmarks"];
  ASSERT_EQ(list.size(), 6u);  // 3 repetitions + mean, median, stddev
  const std::string name = "mpi/pingpong/np:2/bytes:8";
  const double reps[] = {2.0, 1.5, 2.5};
  for (int i = 0; i < 3; ++i) {
    const auto& e = list[static_cast<std::size_t>(i)];
    EXPECT_EQ(e["name"], name);
    EXPECT_EQ(e["run_name"], name);
    EXPECT_EQ(e["run_type"], "iteration");
    EXPECT_EQ(e["repetitions"], 3);
    EXPECT_EQ(e["repetition_index"], i);
    EXPECT_EQ(e["iterations"], 10000);
    EXPECT_EQ(e["threads"], 1);
    EXPECT_EQ(e["family_index"], 0);
    EXPECT_EQ(e["per_family_instance_index"], 0);
    // nanoseconds: Google Benchmark's compare.py prints whole units
    EXPECT_DOUBLE_EQ(e["real_time"].get<double>(), reps[i] * 1000);
    EXPECT_DOUBLE_EQ(e["cpu_time"].get<double>(), reps[i] * 1000);
    EXPECT_EQ(e["time_unit"], "ns");
    EXPECT_DOUBLE_EQ(e["bytes_per_second"].get<double>(), 16.0 / (reps[i] * 1e-6));
    EXPECT_FALSE(e.contains("aggregate_name"));
  }
  const char* aggs[] = {"mean", "median", "stddev"};
  const double values[] = {2.0, 2.0, 0.5};  // sample standard deviation of {2, 1.5, 2.5}
  for (int i = 0; i < 3; ++i) {
    const auto& e = list[static_cast<std::size_t>(3 + i)];
    EXPECT_EQ(e["name"], name + "_" + aggs[i]);
    EXPECT_EQ(e["run_name"], name);
    EXPECT_EQ(e["run_type"], "aggregate");
    EXPECT_EQ(e["aggregate_name"], aggs[i]);
    EXPECT_EQ(e["repetitions"], 3);
    EXPECT_EQ(e["iterations"], 10000);
    EXPECT_EQ(e["time_unit"], "ns");
    EXPECT_NEAR(e["real_time"].get<double>(), values[i] * 1000, 1e-9) << aggs[i];
    EXPECT_NEAR(e["cpu_time"].get<double>(), values[i] * 1000, 1e-9) << aggs[i];
    EXPECT_FALSE(e.contains("repetition_index")) << aggs[i];
    if (i == 2) {
      EXPECT_FALSE(e.contains("bytes_per_second"));  // a spread of times is not a rate
    } else {
      EXPECT_DOUBLE_EQ(e["bytes_per_second"].get<double>(), 16.0 / (values[i] * 1e-6)) << aggs[i];
    }
  }

  rep->add(make_row(gather_point(), {}, false, {}, 0, false, true));
  rep->add(make_row(barrier_point(), {}, false, {}, 0, false, true));
  rep->finish();
  doc = read_json(path);
  ASSERT_EQ(doc["benchmarks"].size(), 18u);
  EXPECT_EQ(doc["benchmarks"][6]["name"], "shm-direct/gather/np:4/bytes:1024");
  EXPECT_EQ(doc["benchmarks"][6]["family_index"], 1);
  EXPECT_DOUBLE_EQ(doc["benchmarks"][6]["bytes_per_second"].get<double>(), 3072 / 10e-6);
  EXPECT_EQ(doc["benchmarks"][12]["name"], "mpi/barrier/np:2/bytes:0");
  EXPECT_EQ(doc["benchmarks"][12]["family_index"], 2);
  EXPECT_FALSE(doc["benchmarks"][12].contains("bytes_per_second"));  // barrier moves no data
  for (const auto& e : doc["benchmarks"]) EXPECT_EQ(e["label"], "sync=barrier") << e["name"];
  EXPECT_DOUBLE_EQ(doc["benchmarks"][17]["real_time"].get<double>(), 0.0);  // stddev of equal reps
}

std::string run_capture(const std::string& command, int* status) {
  std::string out;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) {
    *status = -1;
    return out;
  }
  char buf[512];
  while (std::fgets(buf, sizeof buf, pipe) != nullptr) out += buf;
  *status = ::pclose(pipe);
  return out;
}

TEST(GbenchReporter, ReadByGoogleBenchmarksOwnTools) {
  if (!fs::exists("/usr/share/benchmark/gbench/util.py"))
    GTEST_SKIP() << "Google Benchmark's tools (gbench) are not installed";
  if (!fs::exists("/usr/bin/python3")) GTEST_SKIP() << "no /usr/bin/python3";
  TempDir dir;
  const std::string path = dir.file("gbench.json");
  {
    // With the labels that name the sync method: the tools read them as any benchmark's label.
    auto rep = make_gbench_reporter(path, {{"options", {{"sync", "none"}}}});
    rep->add(make_row(pingpong_point(), {}, false, {}, 0, true, false));
    rep->add(make_row(gather_point(), {}, false, {}, 0, false, true));
    rep->finish();
  }
  // Loads with gbench.util, sorts as compare.py does, and diffs the run against itself.
  const std::string script =
      "import sys; sys.path.insert(0, '/usr/share/benchmark'); "
      "from gbench import util, report; "
      "r = util.sort_benchmark_results(util.load_benchmark_results(sys.argv[1])); "
      "names = report.get_unique_benchmark_names(r); "
      "diff = report.get_difference_report(r, r); "
      "print(len(r['benchmarks']), len(names), len(diff), "
      "sum(1 for b in r['benchmarks'] if b['run_type'] == 'aggregate'))";
  int status = 0;
  const std::string out =
      run_capture("/usr/bin/python3 -c \"" + script + "\" " + path + " 2>&1", &status);
  ASSERT_EQ(status, 0) << out;
  // 12 entries, 8 names (2 points x {run, _mean, _median, _stddev}), 8 diffs + the geomean,
  // 6 aggregates.
  EXPECT_EQ(out, "12 8 9 6\n");
}

// Tables ------------------------------------------------------------------------------------

Config table_config() {
  Config c;
  c.ops = {OpKind::kPingpong, OpKind::kGather, OpKind::kBarrier};
  c.np_list = {2, 4};
  c.size_np = 2;
  c.np_bytes = 1024;
  c.sizes = {8, 1024};
  return c;
}

// The text of a table reporter while it runs and at its end, and what its end printed.
struct FlagTables {
  std::string during;   ///< the file after the fourth row, before finish()
  std::string printed;  ///< stdout of finish()
  std::string text;     ///< the file after finish()
};

// Four points through a table reporter: an oversubscribed 8-byte and a wrong, contended 1K
// ping-pong, a gather and a barrier.
FlagTables write_flag_tables() {
  TempDir dir;
  const std::string path = dir.file("table.txt");
  const Config config = table_config();
  const MachineLimits limits = some_limits();
  auto rep = make_table_reporter(path, config, limits, single_node_map(2));

  PointResult small = pingpong_point();
  rep->add(make_row(small, limits, true, std::nullopt, 1.0, true, false));  // oversubscribed
  PointResult big = pingpong_point();
  big.args.bytes = 1024;
  big.args.count = 128;
  big.wrong = 5;
  rep->add(make_row(big, limits, false, 900.0, 10000.0, true, true));  // wrong and contended
  rep->add(make_row(gather_point(), limits, false, std::nullopt, 1.0, false, true));
  rep->add(make_row(barrier_point(), limits, false, std::nullopt, 1.0, false, true));
  FlagTables out;
  out.during = read_text(path);
  testing::internal::CaptureStdout();
  rep->finish();
  out.printed = testing::internal::GetCapturedStdout();
  out.text = read_text(path);
  return out;
}

TEST(TableReporter, KeptUpToDateThenPrintedAtTheEnd) {
  const FlagTables t = write_flag_tables();
  // Kept up to date from the first row on, under a line that says the run has not finished.
  EXPECT_EQ(t.during.substr(0, t.during.find('\n')),
            "comops: the run had not finished when this was written: 4 point(s) so far");
  EXPECT_EQ(t.printed, t.text);
  EXPECT_EQ(t.text.find("had not finished"), std::string::npos);  // the end rewrote it
  EXPECT_EQ(t.during.substr(t.during.find("\n\n") + 2), t.text);  // the same tables
}

TEST(TableReporter, TitlesFlagLegendAndLimits) {
  const std::string text = write_flag_tables().text;
  for (const char* title : {"== pingpong: bandwidth versus size, np=2 ==\n",
                            "== pingpong: time versus nprocs at 1024 bytes (1K) ==\n",
                            "== gather: time versus nprocs at 1024 bytes (1K) ==\n",
                            "== barrier: time versus nprocs ==\n"})
    EXPECT_NE(text.find(title), std::string::npos) << title << "\n" << text;
  EXPECT_EQ(text.find("== gather: bandwidth versus size"), std::string::npos);  // no size rows
  EXPECT_EQ(text.find("== barrier: bandwidth versus size"), std::string::npos);
  EXPECT_NE(
      text.find(
          "flags: O = oversubscribed (more participants than cores on a node), C = "
          "contended (a participant waited for a CPU, or the host took its CPU (steal), > 5 % "
          "of its timed repetitions), W = wrong results, L = beyond its machine limit (see the "
          "note)\n"),
      std::string::npos)
      << text;
  EXPECT_NE(
      text.find("machine limits: cache-line round trip 0.250 us [0.200 .. 0.300] (cpus 0 and 1);"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("latency_us"), std::string::npos);
}

TEST(TableReporter, EachRowEndsInItsFlags) {
  const std::string text = write_flag_tables().text;
  // Each measured row ends in its flags.
  int o_rows = 0, cw_rows = 0, gather_w_rows = 0, memcpy_rows = 0, cacheline_rows = 0;
  for (const auto& line : lines_of(text)) {
    if (line.rfind("      8  mpi ", 0) == 0) {
      EXPECT_EQ(line.substr(line.size() - 3), "  O") << line;
      ++o_rows;
    }
    if ((line.rfind("     1K  mpi ", 0) == 0 || line.rfind("   2  mpi ", 0) == 0) &&
        line.find("  CW") != std::string::npos) {
      EXPECT_EQ(line.substr(line.size() - 4), "  CW") << line;
      ++cw_rows;
    }
    if (line.rfind("   4  shm-direct ", 0) == 0) {
      EXPECT_EQ(line.substr(line.size() - 3), "  W") << line;
      ++gather_w_rows;
    }
    if (line.find("[memcpy]") != std::string::npos) ++memcpy_rows;
    if (line.find("[cache-line]") != std::string::npos) ++cacheline_rows;
  }
  EXPECT_EQ(o_rows, 1) << text;
  EXPECT_EQ(cw_rows, 2) << text;  // the 1K point sits in the size and the np table
  EXPECT_EQ(gather_w_rows, 1) << text;
  EXPECT_EQ(cacheline_rows, 1) << text;  // beside the 8-byte ping-pong only
  EXPECT_EQ(memcpy_rows, 4) << text;     // sizes 8 and 1K, and the two np tables at 1K
}

TEST(TableReporter, NotesSummaryThenTables) {
  const std::string text = write_flag_tables().text;
  // The notes, then the summary, then the tables; fixed decimals per column, the limits below.
  EXPECT_EQ(text.rfind("comops: note: 1 of 4 points contended (C: other work took CPU time "
                       "while they ran); their times are not trustworthy\ncomops: note: 1 of 4 "
                       "points oversubscribed "
                       "(O): more participants than cores on a node; read them for correctness, "
                       "not speed\n== pingpong at np=2: RTT in us per size ==\n",
                       0),
            0u)
      << text;
  EXPECT_LT(text.find("== barrier: time in us per np =="),
            text.find("== pingpong: bandwidth versus size, np=2 =="));
  EXPECT_NE(
      text.find(
          "  bytes  backend  nodes  RTT_us  min_us  avg_us  reps [min .. max] us  bw_GBps  "
          "latency_us  rate_GBps  flags\n"
          "      8  mpi          1    2.00    1.00    1.50        [1.50 .. 2.50]  0.00800        "
          "1.00    0.00400  O\n"
          "     1K  mpi          1    2.00    1.00    1.50        [1.50 .. 2.50]  1.02400        "
          "1.00    0.51200  CW\n"
          "limits at these sizes (median and range over repetitions):\n"
          "  bytes  limit         nodes   RTT_us  reps [min .. max] us  bw_GBps\n"
          "      8  [memcpy]          1  0.00267  [0.00267 .. 0.00267]     3.00\n"
          "      8  [cache-line]      1  0.25000  [0.20000 .. 0.30000]        -\n"
          "     1K  [memcpy]          1  0.05120  [0.05120 .. 0.05120]    20.00\n\n"),
      std::string::npos)
      << text;
}

TEST(TableReporter, NothingMeasured) {
  TempDir dir;
  const std::string path = dir.file("table.txt");
  const Config config = table_config();
  const MachineLimits limits;
  auto rep = make_table_reporter(path, config, limits, single_node_map(2));
  testing::internal::CaptureStdout();
  rep->finish();
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "no points were measured\n");
  EXPECT_EQ(read_text(path), "no points were measured\n");
}

TEST(TableReporter, EmptyPathPrintsOnly) {
  const Config config = table_config();
  const MachineLimits limits;
  auto rep = make_table_reporter("", config, limits, single_node_map(2));
  rep->add(make_row(barrier_point(), limits, false, std::nullopt, 1.0, false, true));
  testing::internal::CaptureStdout();
  rep->finish();
  const std::string printed = testing::internal::GetCapturedStdout();
  EXPECT_NE(printed.find("== barrier: time versus nprocs ==\n"), std::string::npos) << printed;
  EXPECT_NE(printed.find("machine limits: cache-line round trip not measured; memcpy not "
                         "measured\n"),
            std::string::npos)
      << printed;
}

TEST(TableReporter, SeveralNodesShowHostsPairsAndTheNetwork) {
  Config config = table_config();
  config.ops = {OpKind::kPingpong};
  config.sizes = {8};
  MachineLimits limits = some_limits();
  NetworkLimits net;
  net.rank_b = 2;
  net.host_a = "h1";
  net.host_b = "h2";
  net.rtt_us = 50.5;
  net.bw_bytes = 8;  // so that its bandwidth row shows at the 8-byte size too
  net.bw_GBps = 0.25;
  limits.network = net;
  const NodeMap nodes =
      make_node_map({0, 0, 2, 2}, {"h1", "h1", "h2", "h2"}, {1, 2, 3, 4}, {2, 2, 2, 2});
  auto rep = make_table_reporter("", config, limits, nodes);
  PointResult intra = pingpong_point();
  intra.hosts = {"h1", "h1"};
  PointResult inter = pingpong_point();
  inter.pair = Pair::kInter;
  inter.nodes = 2;
  inter.hosts = {"h1", "h2"};
  inter.time_max_us = 60.0;
  rep->add(make_row(intra, limits, false, std::nullopt, 1.0, true, false));
  rep->add(make_row(inter, limits, false, std::nullopt, 1.0, true, false));
  testing::internal::CaptureStdout();
  rep->finish();
  const std::string text = testing::internal::GetCapturedStdout();
  EXPECT_EQ(text.rfind("nodes: 2 -- node 0 = h1 (world ranks 0,1, 2 cores); node 1 = h2 (world "
                       "ranks 2,3, 2 cores)\n",
                       0),
            0u)
      << text;
  EXPECT_NE(text.find("shm threads run on node 0 (h1)"), std::string::npos) << text;
  EXPECT_NE(text.find("network limit [network]: plain MPI between rank 0 (h1) and rank 2 (h2): "
                      "8 B round trip 50.500 us, 8 one-way bw 0.250 GB/s\n"),
            std::string::npos)
      << text;
  int intra_rows = 0, inter_rows = 0, network_rows = 0;
  for (const auto& line : lines_of(text)) {
    if (line.rfind("      8  mpi intra      1    2.00", 0) == 0) ++intra_rows;
    if (line.rfind("      8  mpi inter      2   60.00", 0) == 0) ++inter_rows;
    if (line.rfind("      8  [network]         2", 0) == 0) ++network_rows;
  }
  EXPECT_EQ(intra_rows, 1) << text;
  EXPECT_EQ(inter_rows, 1) << text;
  EXPECT_EQ(network_rows, 2) << text;  // round trip and bandwidth rows
  EXPECT_NE(text.find("      8  [network]         2   0.06400                          0.250\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("    8       2.00      60.00  mpi intra  30.00x    0.00267\n"),
            std::string::npos)
      << text;  // the summary: a column per pair
}

// Summary ------------------------------------------------------------------------------------

// A ping-pong point of `backend` at `bytes` taking `rtt_us`, with `wrong` wrong elements.
Row summary_row(const std::string& backend, std::size_t bytes, double rtt_us, int wrong = 0,
                bool contended = false) {
  PointResult p = pingpong_point();
  p.backend = backend;
  p.args.bytes = bytes;
  p.args.count = bytes / 8;
  p.time_max_us = rtt_us;
  p.wrong = wrong;
  MachineLimits limits;
  limits.memcpy_GBps = {{8, 3.0}, {1024, 20.0}, {1u << 20, 10.0}};
  return make_row(p, limits, false, contended ? 600.0 : 0.0, 10000.0, true, false);
}

// A broadcast point of `backend` at np, 1K, taking `time_us` (np table only).
Row np_row(const std::string& backend, int np, double time_us, bool oversubscribed = false) {
  PointResult p = gather_point();
  p.backend = backend;
  p.args.op = OpKind::kBroadcast;
  p.args.np = np;
  p.time_max_us = time_us;
  p.wrong = 0;
  return make_row(p, {}, oversubscribed, std::nullopt, 1.0, false, true);
}

// 8 B: shm-direct is fastest but wrong, so shm-staged (contended) wins over mpi; 1K: shm-direct
// wins; 64K: shm-staged was not measured and shm-direct is wrong, so mpi wins alone; 1M: every
// backend is wrong. Broadcast's np table runs in milliseconds.
std::vector<Row> summary_rows() {
  return {summary_row("mpi", 8, 0.944),
          summary_row("mpi", 1024, 1.8),
          summary_row("mpi", 64 << 10, 20.5),
          summary_row("mpi", 1 << 20, 400.0, 1),
          summary_row("shm-staged", 8, 0.368, 0, true),
          summary_row("shm-staged", 1024, 0.75),
          summary_row("shm-staged", 1 << 20, 300.0, 2),
          summary_row("shm-direct", 8, 0.117, 4),
          summary_row("shm-direct", 1024, 0.25),
          summary_row("shm-direct", 64 << 10, 12.0, 1),
          summary_row("shm-direct", 1 << 20, 90.0, 1),
          np_row("mpi", 4, 3000.0, true),
          np_row("mpi", 2, 1500.0),
          np_row("shm-direct", 2, 1250.0)};
}

TEST(Summary, WinnerMarginAndWrongRowsNeverWin) {
  const auto tables = summarize(summary_rows(), {{OpKind::kPingpong, OpKind::kBroadcast}, false});
  ASSERT_EQ(tables.size(), 2u);
  const auto& t = tables[0];
  EXPECT_EQ(t.op, OpKind::kPingpong);
  EXPECT_TRUE(t.size_table);
  EXPECT_EQ(t.np, 2);
  EXPECT_EQ(t.backends, (std::vector<std::string>{"mpi", "shm-staged", "shm-direct"}));
  ASSERT_EQ(t.lines.size(), 4u);
  EXPECT_EQ(t.lines[0].key, 8u);
  EXPECT_EQ(t.lines[0].winner, 1u);     // shm-staged: shm-direct is faster but wrong
  EXPECT_EQ(t.lines[0].runner_up, 0u);  // mpi
  EXPECT_DOUBLE_EQ(*t.lines[0].margin, 0.944 / 0.368);
  EXPECT_EQ(t.lines[0].flags, (std::vector<std::string>{"", "C", "W"}));
  EXPECT_DOUBLE_EQ(*t.lines[0].memcpy_us, 8 / 3e3);
  EXPECT_EQ(t.lines[1].winner, 2u);
  EXPECT_DOUBLE_EQ(*t.lines[1].margin, 3.0);
  EXPECT_EQ(t.lines[2].winner, 0u);  // alone
  EXPECT_FALSE(t.lines[2].runner_up.has_value());
  EXPECT_FALSE(t.lines[2].margin.has_value());
  EXPECT_FALSE(t.lines[2].time_us[1].has_value());  // not measured
  EXPECT_FALSE(t.lines[2].memcpy_us.has_value());
  EXPECT_FALSE(t.lines[3].winner.has_value());  // all wrong
  EXPECT_FALSE(tables[1].size_table);
  EXPECT_EQ(tables[1].bytes, 1024u);
  EXPECT_EQ(tables[1].lines[0].key, 2u);  // np ascending, whatever the measurement order
  EXPECT_EQ(tables[1].lines[1].key, 4u);
}

TEST(Summary, TextAlignedOnTheDecimalPoint) {
  const auto tables = summarize(summary_rows(), {{OpKind::kPingpong, OpKind::kBroadcast}, false});
  EXPECT_EQ(render_summary(tables),
            "== pingpong at np=2: RTT in us per size ==\n"
            "bytes        mpi  shm-staged  shm-direct  winner      margin  memcpy_us\n"
            "    8    0.944       0.368 C    0.117 W   shm-staged   2.57x    0.00267\n"
            "   1K    1.800       0.750      0.250     shm-direct   3.00x    0.05120\n"
            "  64K   20.500           -     12.000 W   mpi              -          -\n"
            "   1M  400.000 W   300.000 W   90.000 WL  -                -  104.85760\n"
            "\n"
            "== broadcast at 1K: time in ms per np ==\n"  // 1.25 ms: three digits, 2 decimals
            "np     mpi  shm-direct  winner      margin\n"
            " 2  1.50          1.25  shm-direct   1.20x\n"
            " 4  3.00 O           -  mpi              -\n"
            "\n"
            "who wins: each backend's headline time (ping-pong: the round trip); winner = the "
            "fastest backend\nwithout wrong results (W never wins), margin = the runner-up's "
            "time / the winner's; memcpy =\nthe time one single-thread memcpy of the size takes "
            "(the memcpy limit as a time)\n\n");
  EXPECT_EQ(render_summary({}), "");
}

TEST(Summary, JsonView) {
  const auto tables = summarize(summary_rows(), {{OpKind::kBroadcast, OpKind::kPingpong}, false});
  const nlohmann::json j = summary_json(tables);
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[0]["op"], "broadcast");  // the layout's op order
  const nlohmann::json expected_np = nlohmann::json::parse(R"({
    "op": "broadcast", "table": "np", "bytes": 1024, "backends": ["mpi", "shm-direct"],
    "rows": [
      {"np": 2, "time_us": {"mpi": 1500.0, "shm-direct": 1250.0}, "flags": {},
       "winner": "shm-direct", "runner_up": "mpi", "margin": 1.2, "memcpy_us": null},
      {"np": 4, "time_us": {"mpi": 3000.0}, "flags": {"mpi": "O"},
       "winner": "mpi", "runner_up": null, "margin": null, "memcpy_us": null}]})");
  EXPECT_EQ(j[0], expected_np) << j[0].dump(2);
  const auto& size = j[1];
  EXPECT_EQ(size["op"], "pingpong");
  EXPECT_EQ(size["table"], "size");
  EXPECT_EQ(size["np"], 2);
  EXPECT_FALSE(size.contains("bytes"));
  ASSERT_EQ(size["rows"].size(), 4u);
  const nlohmann::json first = {
      {"bytes", 8},
      {"time_us", {{"mpi", 0.944}, {"shm-staged", 0.368}, {"shm-direct", 0.117}}},
      {"flags", {{"shm-staged", "C"}, {"shm-direct", "W"}}},
      {"winner", "shm-staged"},
      {"runner_up", "mpi"},
      {"margin", 0.944 / 0.368},
      {"memcpy_us", 8 / 3e3}};
  EXPECT_EQ(size["rows"][0], first) << size["rows"][0].dump(2);
  EXPECT_TRUE(size["rows"][3]["winner"].is_null());
  EXPECT_EQ(size["rows"][3]["flags"],
            (nlohmann::json{{"mpi", "W"}, {"shm-staged", "W"}, {"shm-direct", "WL"}}));
}

TEST(Summary, SeveralNodesLabelPingpongByPair) {
  Row inter = summary_row("mpi", 8, 60.0);
  inter.point.pair = Pair::kInter;
  const std::vector<Row> rows{summary_row("mpi", 8, 1.0), inter, summary_row("swcc-64", 8, 6.0)};
  EXPECT_EQ(summarize(rows, {{}, true})[0].backends,
            (std::vector<std::string>{"mpi intra", "mpi inter", "swcc-64 intra"}));
  const std::vector<Row> one_node{summary_row("mpi", 8, 1.0), summary_row("swcc-64", 8, 6.0)};
  EXPECT_EQ(summarize(one_node, {{}, false})[0].backends,
            (std::vector<std::string>{"mpi", "swcc-64"}));
}

TEST(JsonReporter, SummaryBesideTheResults) {
  TempDir dir;
  const std::string path = dir.file("results.json");
  auto rep = make_json_reporter(path, nlohmann::json::object(), {{OpKind::kPingpong}, false});
  EXPECT_EQ(read_json(path)["summary"], nlohmann::json::array());
  const auto rows = summary_rows();
  for (const Row& r : rows) rep->add(r);
  rep->finish();
  const auto doc = read_json(path);
  EXPECT_EQ(doc["results"].size(), rows.size());
  EXPECT_EQ(doc["summary"], summary_json(summarize(rows, {{OpKind::kPingpong}, false})));
  EXPECT_EQ(doc["summary"].size(), 2u);
}

// Busy note ---------------------------------------------------------------------------------

TEST(BusyNote, OnlyWhenThereIsSomethingToSay) {
  const std::vector<Row> calm{summary_row("mpi", 8, 1.0), summary_row("mpi", 16, 1.0)};
  EXPECT_EQ(busy_note(calm, 0.97), "");
  EXPECT_EQ(busy_note(calm, std::nullopt), "");
  EXPECT_EQ(busy_note(calm, 0.75), "");  // the threshold itself is not busy
  EXPECT_EQ(busy_note(calm, 0.12),
            "comops: note: the machine was busy: 12 % idle before the run, 0 of 2 points "
            "contended (C)\n");
  const std::vector<Row> contended{summary_row("mpi", 8, 1.0, 0, true),
                                   summary_row("mpi", 16, 1.0)};
  EXPECT_EQ(busy_note(contended, 0.974),
            "comops: note: 1 of 2 points contended (C: other work took CPU time while they ran; "
            "97 % idle before the run); their times are not trustworthy\n");
  EXPECT_EQ(busy_note(contended, std::nullopt),
            "comops: note: 1 of 2 points contended (C: other work took CPU time while they ran); "
            "their times are not trustworthy\n");
  std::vector<Row> over = contended;
  over.push_back(np_row("mpi", 4, 10.0, true));
  EXPECT_EQ(busy_note(over, 0.5),
            "comops: note: the machine was busy: 50 % idle before the run, 1 of 3 points "
            "contended (C); their times are not trustworthy\n"
            "comops: note: 1 of 3 points oversubscribed (O): more participants than cores on a "
            "node; read them for correctness, not speed\n");
  EXPECT_EQ(busy_note({np_row("mpi", 4, 10.0, true)}, 0.9),
            "comops: note: 1 of 1 points oversubscribed (O): more participants than cores on a "
            "node; read them for correctness, not speed\n");
}

// Rows as they finish -----------------------------------------------------------------------

TEST(LiveReporter, OneFlushedLinePerRowAndAHeaderPerOp) {
  const Row contended = summary_row("shm-staged", 1024, 0.75, 0, true);
  EXPECT_EQ(live_header(OpKind::kPingpong, Sync::kNone),
            "#  backend          op            np    bytes       RTT_us      bw_GBps  flags  "
            "sync=none\n");
  EXPECT_EQ(live_header(OpKind::kBarrier, Sync::kBarrier),
            "#  backend          op            np    bytes      time_us      bw_GBps  flags  "
            "sync=barrier\n");
  // An op name longer than the column widens it under that op's header, and in its rows.
  EXPECT_EQ(live_header(OpKind::kPutFenceBw, Sync::kNone),
            "#  backend          op             np    bytes      time_us      bw_GBps  flags  "
            "sync=none\n");
  PointResult window = pingpong_point();  // a window of 64 puts of 8 B in 2 us: 0.256 GB/s
  window.args.op = OpKind::kPutFenceBw;
  window.args.bytes = 8;
  window.args.count = 1;
  window.time_max_us = 2.0;
  EXPECT_EQ(live_line(make_row(window, {}, false, 0.0, 10000.0, true, false), false),
            "   mpi              put-fence-bw    2        8        2.000       0.2560\n");
  EXPECT_EQ(live_line(contended, false),
            "   shm-staged       pingpong       2       1K        0.750       2.7307  C\n");
  EXPECT_EQ(live_line(make_row(barrier_point(), {}, false, {}, 1.0, false, true), false),
            "   mpi              barrier        2        0        0.500            -\n");
  Row inter = summary_row("mpi", 8, 60.0);
  inter.point.pair = Pair::kInter;
  EXPECT_EQ(live_line(inter, true),
            "   mpi inter        pingpong       2        8       60.000       0.0003\n");

  auto rep = make_live_reporter(false, Sync::kBarrier);
  testing::internal::CaptureStdout();
  rep->add(summary_row("mpi", 8, 0.944));
  rep->add(contended);
  rep->add(np_row("mpi", 2, 1500.0));
  rep->add(summary_row("mpi", 16, 1.0));
  rep->finish();
  EXPECT_EQ(testing::internal::GetCapturedStdout(),
            live_header(OpKind::kPingpong, Sync::kBarrier) +
                live_line(summary_row("mpi", 8, 0.944), false) + live_line(contended, false) +
                live_header(OpKind::kBroadcast, Sync::kBarrier) +
                live_line(np_row("mpi", 2, 1500.0), false) +
                live_header(OpKind::kPingpong, Sync::kBarrier) +
                live_line(summary_row("mpi", 16, 1.0), false) + "\n");

  auto nothing = make_live_reporter(false, Sync::kNone);
  testing::internal::CaptureStdout();
  nothing->finish();
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "");  // no blank line without rows
}

TEST(JsonRow, InterPairCarriesHostsNodesAndItsOwnName) {
  PointResult inter = pingpong_point();
  inter.pair = Pair::kInter;
  inter.nodes = 2;
  inter.hosts = {"h1", "h2"};
  const auto j = to_json(make_row(inter, some_limits(), false, std::nullopt, 1.0, true, false));
  EXPECT_EQ(j["pair"], "inter");
  EXPECT_EQ(j["nodes"], 2);
  EXPECT_EQ(j["hosts"], (std::vector<std::string>{"h1", "h2"}));
  EXPECT_EQ(point_name(inter), "mpi/pingpong/np:2/bytes:8/pair:inter");
  EXPECT_FALSE(to_json(make_row(barrier_point(), {}, false, std::nullopt, 1.0, false, true))
                   .contains("pair"));
}

// Percentiles: in a row's JSON when the point has them, absent otherwise.
TEST(JsonRow, PercentilesOnlyWhenCallsWereTimedAlone) {
  EXPECT_FALSE(to_json(make_row(gather_point(), {}, false, std::nullopt, 1.0, false, true))
                   .contains("percentiles_us"));
  PointResult g = gather_point();
  g.percentiles_us = Percentiles{9.5, 11.25, 14.0, 30.0};
  const auto j = to_json(make_row(g, {}, false, std::nullopt, 1.0, false, true));
  EXPECT_EQ(j["percentiles_us"],
            (nlohmann::json{{"p50", 9.5}, {"p90", 11.25}, {"p99", 14.0}, {"max", 30.0}}));
}

// The tables name the timing method; --percentiles adds the percentile columns.
TEST(TableReporter, TimingLineAndPercentileColumns) {
  TempDir dir;
  const MachineLimits limits = some_limits();
  PointResult g = gather_point();
  g.percentiles_us = Percentiles{9.5, 11.25, 14.0, 30.0};
  auto render = [&](Sync sync, bool percentiles) {
    Config config = table_config();
    config.measure.sync = sync;
    config.measure.percentiles = percentiles;
    auto rep = make_table_reporter("", config, limits, single_node_map(2));
    rep->add(make_row(g, limits, false, std::nullopt, 1.0, false, true));
    testing::internal::CaptureStdout();
    rep->finish();
    return testing::internal::GetCapturedStdout();
  };
  const std::string none = render(Sync::kNone, false);
  EXPECT_NE(none.find("\ntiming: sync none: calls back to back, one barrier per repetition\n"),
            std::string::npos)
      << none;
  EXPECT_EQ(none.find("p50_us"), std::string::npos) << none;
  const std::string barrier = render(Sync::kBarrier, false);
  EXPECT_NE(barrier.find("\ntiming: sync barrier: a barrier before each call, only the call "
                         "timed (OSU)\n"),
            std::string::npos)
      << barrier;
  EXPECT_EQ(barrier.find("p50_us"), std::string::npos) << "percentiles shown unasked";
  const std::string shown = render(Sync::kBarrier, true);
  EXPECT_NE(shown.find("\ntiming: sync barrier: a barrier before each call, only the call timed "
                       "(OSU); p50/p90/p99/pmax_us: percentiles of the per-call time (its max "
                       "over participants), all calls of all repetitions\n"),
            std::string::npos)
      << shown;
  EXPECT_NE(shown.find("  np  backend     nodes  time_us  min_us  avg_us  reps [min .. max] us  "
                       "p50_us  p90_us  p99_us  pmax_us  bw_GBps  flags\n"
                       "   4  shm-direct      1    10.00    8.00    9.00       [8.00 .. 12.00]    "
                       "9.50   11.25   14.00    30.00    0.307  W\n"),
            std::string::npos)
      << shown;
  const std::string none_shown = render(Sync::kNone, true);
  EXPECT_NE(none_shown.find("; p50/p90/p99/pmax_us: percentiles of the per-call time (each call "
                            "timed alone by a clock read after it; its max over participants)"),
            std::string::npos)
      << none_shown;
}

TEST(JsonReporter, InterPairHasItsOwnBindings) {
  TempDir dir;
  const std::string path = dir.file("results.json");
  auto rep = make_json_reporter(path, nlohmann::json::object());
  PointResult inter = pingpong_point();
  inter.pair = Pair::kInter;
  inter.cores = {0, 0};
  rep->add(make_row(pingpong_point(), some_limits(), false, std::nullopt, 1.0, true, false));
  rep->add(make_row(inter, some_limits(), false, std::nullopt, 1.0, true, false));
  const auto doc = read_json(path);
  EXPECT_EQ(doc["context"]["bindings"]["mpi np=2"], (std::vector<int>{0, 1}));
  EXPECT_EQ(doc["context"]["bindings"]["mpi np=2 inter"], (std::vector<int>{0, 0}));
}

TEST(Limits, JsonRoundTripAndNetwork) {
  MachineLimits l = some_limits();
  const MachineLimits back = limits_from_json(to_json(l));
  EXPECT_EQ(back.cacheline_rtt_us, l.cacheline_rtt_us);
  EXPECT_EQ(back.core_b, 1);
  EXPECT_EQ(back.memcpy_GBps, l.memcpy_GBps);
  EXPECT_FALSE(to_json(l).contains("network"));
  l.network = NetworkLimits{0, 3, "a", "b", 12.5, 1u << 20, 1.5};
  const auto j = to_json(l);
  EXPECT_EQ(j["network"]["ranks"], (std::vector<int>{0, 3}));
  EXPECT_EQ(j["network"]["hosts"], (std::vector<std::string>{"a", "b"}));
  EXPECT_DOUBLE_EQ(j["network"]["rtt_8B_us"].get<double>(), 12.5);
  EXPECT_EQ(j["network"]["bw_bytes"], 1u << 20);
  EXPECT_DOUBLE_EQ(j["network"]["bw_GBps"].get<double>(), 1.5);
  EXPECT_THROW(limits_from_json(nlohmann::json::object()), nlohmann::json::exception);
}

}  // namespace
}  // namespace comops
