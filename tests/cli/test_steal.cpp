// Steal time in the real binary's rows: every row carries its steal (this machine's /proc/stat),
// and with a fake /proc/stat ($COMOPS_PROC_STAT) whose steal advances while the points run, every
// row is contended (C) and says so in the note above the summary.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "cli_runner.hpp"
#include "tests/allowed_cpu.hpp"

namespace {

using namespace comops_test;  // comops(), scratch(), slurp()
namespace fs = std::filesystem;

// Three rows: mpi (two processes), shm-staged and shm-direct (two threads). 20 repetitions of
// 1024 64 KiB round trips, set (-n): a timed window of 0.1 s or more, many of the fake steal's
// 1 ms updates. By size, a busy machine's slow first call can leave one round trip a
// repetition: a window of 0.4 ms, which an update delayed by the load can miss.
constexpr const char* kSweep =
    "--backend=mpi,shm --op=pingpong --sizes=64K -r 20 -n 1024 --no-limits";

// Runs kSweep with `env` and --json into `dir`; the document, after asserting exit 0.
nlohmann::json run_json(const std::string& env, const fs::path& dir, Outcome& o) {
  const fs::path json = dir / "run.json";
  o = comops(fmt::format("{} --progress=never --json {}", kSweep, json.string()), env);
  EXPECT_EQ(o.code, 0) << o.err;
  return o.code == 0 ? nlohmann::json::parse(slurp(json)) : nlohmann::json();
}

TEST(Steal, EveryRowCarriesItsSteal) {
  Outcome o;
  const nlohmann::json doc = run_json("", scratch(), o);
  ASSERT_FALSE(doc.is_null());
  EXPECT_EQ(doc["context"]["cpu_steal_source"], "/proc/stat");
  ASSERT_EQ(doc["results"].size(), 3u);
  for (const auto& r : doc["results"]) {
    ASSERT_TRUE(r["cpu_steal_us"].is_number()) << r.dump();
    ASSERT_TRUE(r["cpu_steal_window_us"].is_number()) << r.dump();
    EXPECT_GE(r["cpu_steal_us"].get<double>(), 0.0) << r.dump();
    EXPECT_GT(r["cpu_steal_window_us"].get<double>(), 0.0) << r.dump();
  }
}

// A fake /proc/stat whose every CPU gains 1000 ticks (10 s at USER_HZ 100) of steal every 1 ms
// while it lives (so any window with one update in it is contended); each text is written whole and
// renamed into place, so a reader never sees half.
class AdvancingStat {
 public:
  explicit AdvancingStat(fs::path path) : path_(std::move(path)) {
    write(0);
    writer_ = std::thread([this] {
      for (long k = 1; !stop_; ++k) {
        write(k * 1000);
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    });
  }
  ~AdvancingStat() {
    stop_ = true;
    writer_.join();
  }
  const fs::path& path() const { return path_; }

 private:
  void write(long steal) {
    const fs::path next = path_.string() + ".next";
    {
      std::ofstream out(next);
      out << "cpu  0 0 0 0 0 0 0 0 0 0\n";
      for (int c : cpus_) out << fmt::format("cpu{} 100 0 100 1000 0 0 0 {} 0 0\n", c, steal);
      out << "intr 1 0\nctxt 1\n";
    }
    std::error_code ignored;  // a failed write shows as no steal in the rows
    fs::rename(next, path_, ignored);
  }

  const fs::path path_;
  const std::vector<int> cpus_ = allowed_cpus();  // the participants' are among them
  std::atomic<bool> stop_{false};
  std::thread writer_;
};

TEST(Steal, StealAdvancingInTheWindowFlagsEveryRow) {
  const fs::path dir = scratch();
  Outcome o;
  nlohmann::json doc;
  {
    AdvancingStat stat(dir / "stat");
    doc = run_json(fmt::format("COMOPS_PROC_STAT={}", stat.path().string()), dir, o);
  }
  ASSERT_FALSE(doc.is_null());
  EXPECT_EQ(doc["context"]["cpu_steal_source"], (dir / "stat").string());
  ASSERT_EQ(doc["results"].size(), 3u);
  for (const auto& r : doc["results"]) {
    ASSERT_TRUE(r["cpu_steal_us"].is_number()) << r.dump();
    EXPECT_GT(r["cpu_steal_us"].get<double>(), 0.05 * r["cpu_steal_window_us"].get<double>())
        << r.dump();
    EXPECT_EQ(r["contended"], true) << r.dump();
  }
  EXPECT_NE(o.out.find("3 of 3 points contended (C"), std::string::npos) << o.out.substr(0, 400);
}

}  // namespace
