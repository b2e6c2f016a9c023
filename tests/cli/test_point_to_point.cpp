// The real binary's point-to-point ops beyond COMOPS' set: pingpong-nb and stream-bw run,
// validate and produce rows on every backend that implements them (the others are skipped with
// a note); stream-bw's tables and rows say it is a stream of W messages per window, never a
// ping-pong rate; --window reaches the context and rows; a corrupted stream is found (exit 1).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_runner.hpp"

namespace {

using namespace comops_test;  // comops(), scratch(), slurp(), kQuick ...
namespace fs = std::filesystem;

// The detailed table of op (title "== op: bandwidth versus size"), up to the next blank line.
std::string size_table(const std::string& out, const std::string& op) {
  const auto start = out.find("== " + op + ": bandwidth versus size");
  if (start == std::string::npos) return "";
  return out.substr(start, out.find("\n\n", start) - start);
}

TEST(PointToPoint, EveryBackendThatHasThemValidatesAndWritesRows) {
  const fs::path dir = scratch();
  const Outcome o = comops(fmt::format(
      "--backend=all --op=pingpong-nb,stream-bw --np=2 --sizes=8,64K --window=4 -n 5 -w 1 -r 2 "
      "--no-limits --json {}/r.json",
      dir.string()));
  ASSERT_EQ(o.code, 0) << o.err;
  for (const char* note : {"comops: note: shm-staged: pingpong-nb is not implemented, skipped",
                           "comops: note: shm-direct: pingpong-nb is not implemented, skipped",
                           "comops: note: shm-staged: stream-bw is not implemented, skipped",
                           "comops: note: shmp-staged: pingpong-nb is not implemented, skipped",
                           "comops: note: shmp-direct: pingpong-nb is not implemented, skipped",
                           "comops: note: shmp-staged: stream-bw is not implemented, skipped",
                           "comops: note: hybrid: stream-bw is not implemented, skipped",
                           "comops: note: swcc-64: stream-bw is not implemented, skipped"})
    EXPECT_NE(o.err.find(note), std::string::npos) << note << "\n" << o.err;
  const auto doc = nlohmann::json::parse(slurp(dir / "r.json"));
  EXPECT_EQ(doc["context"]["options"]["window"], 4);
  std::vector<std::string> rows;
  for (const auto& row : doc["results"]) {
    const std::string op = row["op"];
    rows.push_back(fmt::format("{} {} {}", row["backend"].get<std::string>(), op,
                               row["bytes"].get<std::size_t>()));
    EXPECT_EQ(row["wrong"], 0) << row.dump();
    EXPECT_EQ(row["np"], 2) << row.dump();
    EXPECT_EQ(row["pair"], "intra") << row.dump();
    const double time = row["time_us"]["max"], bytes = row["bytes"];
    ASSERT_GT(time, 0) << row.dump();
    if (op == "stream-bw") {
      EXPECT_EQ(row["window"], 4) << row.dump();
      EXPECT_DOUBLE_EQ(row["bw_GBps"].get<double>(), 4 * bytes / time / 1e3) << row.dump();
      EXPECT_FALSE(row.contains("latency_us")) << row.dump();
      EXPECT_FALSE(row.contains("rate_GBps")) << row.dump();
    } else {
      EXPECT_FALSE(row.contains("window")) << row.dump();
      EXPECT_DOUBLE_EQ(row["latency_us"].get<double>(), time / 2) << row.dump();
      EXPECT_DOUBLE_EQ(row["bw_GBps"].get<double>(), 2 * bytes / time / 1e3) << row.dump();
    }
  }
  EXPECT_EQ(rows,
            (std::vector<std::string>{
                "mpi pingpong-nb 8", "mpi pingpong-nb 65536", "mpi stream-bw 8",
                "mpi stream-bw 65536", "shm-direct stream-bw 8", "shm-direct stream-bw 65536",
                "shmp-direct stream-bw 8", "shmp-direct stream-bw 65536", "hybrid pingpong-nb 8",
                "hybrid pingpong-nb 65536", "swcc-64 pingpong-nb 8", "swcc-64 pingpong-nb 65536"}));

  // stream-bw's table: its own definition and columns, nothing of a ping-pong's.
  const std::string stream = size_table(o.out, "stream-bw");
  ASSERT_FALSE(stream.empty()) << o.out;
  for (const char* words :
       {"streaming bandwidth, not a ping-pong", "W = 4 (--window)", "window_us", "stream_GBps"})
    EXPECT_NE(stream.find(words), std::string::npos) << words << "\n" << stream;
  for (const char* words : {"RTT", "latency_us", "rate_GBps", "bw_GBps"})
    EXPECT_EQ(stream.find(words), std::string::npos) << words << "\n" << stream;
  // pingpong-nb's: a ping-pong's columns.
  const std::string nb = size_table(o.out, "pingpong-nb");
  for (const char* words : {"non-blocking ping-pong", "RTT_us", "latency_us", "rate_GBps"})
    EXPECT_NE(nb.find(words), std::string::npos) << words << "\n" << nb;
  // The live lines name the columns the same way.
  EXPECT_NE(o.out.find("window_us  stream_GBps  flags"), std::string::npos) << o.out;
}

TEST(PointToPoint, InjectedFaultInTheStreamExitsOne) {
  const fs::path dir = scratch();
  const Outcome o =
      comops(fmt::format("{} --op=stream-bw --sizes=1K --window=3 --inject-fault --json {}/r.json",
                         kQuick, dir.string()));
  EXPECT_EQ(o.code, 1) << o.err;
  const auto doc = nlohmann::json::parse(slurp(dir / "r.json"));
  ASSERT_EQ(doc["results"].size(), 1u);
  EXPECT_EQ(doc["results"][0]["wrong"], 1);
}

TEST(PointToPoint, WindowOptionErrors) {
  const std::string quick = std::string(kQuick) + " ";
  expect_usage_error(quick + "--op=stream-bw --window=0", "--window must be 1 to 1048576, not 0");
  expect_usage_error(quick + "--op=stream-bw --window=x", "Could not convert: --window = x");
  // The whole line, which names every windowed op: CliErrors.BadWindow (tests/unit/test_cli.cpp).
  expect_usage_error(quick + "--op=pingpong --window=8", "--window applies to stream-bw");
}

}  // namespace
