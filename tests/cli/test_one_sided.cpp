// The real comops binary with the one-sided ops on every backend: each op a backend implements
// validates and gives a row per size with the origin's time and its bandwidth, and each op it
// leaves out is named in one note.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "cli_runner.hpp"

namespace {

using namespace comops_test;  // comops(), scratch(), slurp()
namespace fs = std::filesystem;

const std::vector<std::string> kPassive = {"put", "get", "put-bw", "get-bw"};
const std::vector<std::string> kFence = {"put-fence", "get-fence", "put-fence-bw", "get-fence-bw"};

TEST(OneSided, EveryBackendValidatesAndWritesRows) {
  const fs::path json = scratch() / "rma.json";
  const Outcome o = comops(fmt::format(
      "--backend=all --np=2 --op=put,get,put-bw,get-bw,put-fence,get-fence,put-fence-bw,"
      "get-fence-bw --sizes=8,64K -n 3 -w 1 -r 2 --no-limits --progress=never --json {}",
      json.string()));
  ASSERT_EQ(o.code, 0) << o.err;

  // Which backend implements which op: mpi, shm-direct and shmp-direct all, swcc active target
  // only, shm-staged and shmp-staged none; the sweep notes each one left out.
  std::set<std::tuple<std::string, std::string, int>> want;
  for (const std::string& op : kPassive)
    for (int bytes : {8, 65536})
      for (const char* backend : {"mpi", "shm-direct", "shmp-direct"})
        want.insert({backend, op, bytes});
  for (const std::string& op : kFence)
    for (int bytes : {8, 65536})
      for (const char* backend : {"mpi", "shm-direct", "shmp-direct", "swcc-64"})
        want.insert({backend, op, bytes});
  for (const std::string& op : kPassive) {
    EXPECT_NE(o.err.find("comops: note: swcc-64: " + op + " is not implemented, skipped"),
              std::string::npos)
        << o.err;
    for (const char* staged : {"shm-staged", "shmp-staged"})
      EXPECT_NE(
          o.err.find(fmt::format("comops: note: {}: {} is not implemented, skipped", staged, op)),
          std::string::npos)
          << o.err;
  }
  for (const std::string& op : kFence)
    for (const char* staged : {"shm-staged", "shmp-staged"})
      EXPECT_NE(
          o.err.find(fmt::format("comops: note: {}: {} is not implemented, skipped", staged, op)),
          std::string::npos)
          << o.err;

  const auto doc = nlohmann::json::parse(slurp(json));
  std::set<std::tuple<std::string, std::string, int>> got;
  for (const auto& row : doc["results"]) {
    const std::string op = row["op"], backend = row["backend"];
    const int bytes = row["bytes"];
    const std::string where = backend + " " + op + " " + std::to_string(bytes);
    got.insert({backend, op, bytes});
    EXPECT_EQ(row["wrong"], 0) << where;
    EXPECT_EQ(row["np"], 2) << where;
    EXPECT_EQ(row["pair"], "intra") << where;
    EXPECT_FALSE(row.contains("latency_us")) << where;  // not a round trip
    // Only the origin is timed, so min, avg and max are its one time.
    const double t = row["time_us"]["max"];
    EXPECT_GT(t, 0) << where;
    EXPECT_EQ(row["time_us"]["min"], row["time_us"]["max"]) << where;
    // bw = operations per call x size / time: 64 for the -bw ops, 1 otherwise.
    const bool windowed = op.size() > 3 && op.substr(op.size() - 3) == "-bw";
    EXPECT_NEAR(row["bw_GBps"].get<double>(), (windowed ? 64.0 : 1.0) * bytes / (t * 1e3),
                1e-9 * row["bw_GBps"].get<double>())
        << where;
  }
  EXPECT_EQ(got, want);
}

}  // namespace
