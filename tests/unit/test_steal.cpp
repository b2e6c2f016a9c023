// Steal time: parsing exact /proc/stat texts (per-CPU lines, kernels without the steal column, a
// CPU missing), the calling thread's CPUs, the per-CPU steal over a window read from a file given
// by path, the contention judgement on it, and this machine's own /proc/stat.
#include <gtest/gtest.h>
#include <sched.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "harness/machine/steal.hpp"
#include "harness/util/read_text_file.hpp"
#include "temp_dir.hpp"
#include "tests/allowed_cpu.hpp"

namespace comops {
namespace {

using comops_test::TempDir;

// A /proc/stat of a Linux 6.1 guest with two CPUs (numbers from this machine).
constexpr const char* kTwoCpus =
    "cpu  1563 0 1098 29453 105 0 20 38 0 0\n"
    "cpu0 622 0 450 15058 5 0 5 10 0 0\n"
    "cpu1 940 0 647 14394 99 0 15 27 0 0\n"
    "intr 74917 0 0 0 0 0 0\n"
    "ctxt 176838\n"
    "btime 1764652741\n"
    "processes 3036\n"
    "procs_running 2\n"
    "procs_blocked 0\n"
    "softirq 61230 0 10571 3 2071 0 0 17 15632 0 32936\n";

TEST(ParseProcStatSteal, EachCpusEighthNumber) {
  EXPECT_EQ(parse_proc_stat_steal(kTwoCpus), (StealTicks{{0, 10}, {1, 27}}));
  // many CPUs, numbers of several digits, one offline (absent), the guest columns absent
  EXPECT_EQ(parse_proc_stat_steal("cpu  1 2 3 4 5 6 7 999\n"
                                  "cpu0 1 2 3 4 5 6 7 8\n"
                                  "cpu2 1 2 3 4 5 6 7 123456789012\n"
                                  "cpu13 0 0 0 0 0 0 0 5 0 0\n"),
            (StealTicks{{0, 8}, {2, 123456789012u}, {13, 5}}));
}

TEST(ParseProcStatSteal, NoStealColumnIsZero) {
  // Linux 2.6.0 .. 2.6.10 (7 numbers) and 2.4 (4 numbers) have no steal column
  EXPECT_EQ(parse_proc_stat_steal("cpu  8 0 9 100 1 0 0\ncpu0 8 0 9 100 1 0 0\n"),
            (StealTicks{{0, 0}}));
  EXPECT_EQ(parse_proc_stat_steal("cpu  8 0 9 100\ncpu0 4 0 5 50\ncpu1 4 0 4 50\n"),
            (StealTicks{{0, 0}, {1, 0}}));
}

TEST(ParseProcStatSteal, SkipsWhatIsNoCpuLine) {
  EXPECT_EQ(parse_proc_stat_steal(""), StealTicks{});
  EXPECT_EQ(parse_proc_stat_steal("cpu  1 2 3 4 5 6 7 8\n"), StealTicks{});  // machine-wide only
  EXPECT_EQ(parse_proc_stat_steal("cpux 1 2 3 4 5 6 7 8\ncpu1x 1 2 3 4 5 6 7 8\nintr 5\n"),
            StealTicks{});
}

TEST(StealUsPerCpu, SumOverCountInMicroseconds) {
  const double tick = clock_tick_us();
  EXPECT_EQ(steal_us_per_cpu(kTwoCpus, {0}), 10 * tick);
  EXPECT_EQ(steal_us_per_cpu(kTwoCpus, {1}), 27 * tick);
  EXPECT_EQ(steal_us_per_cpu(kTwoCpus, {0, 1}), (10 + 27) * tick / 2);
  // a CPU that is not in the file, or no CPU at all: unknown
  EXPECT_EQ(steal_us_per_cpu(kTwoCpus, {2}), std::nullopt);
  EXPECT_EQ(steal_us_per_cpu(kTwoCpus, {0, 2}), std::nullopt);
  EXPECT_EQ(steal_us_per_cpu(kTwoCpus, {}), std::nullopt);
  EXPECT_EQ(steal_us_per_cpu("", {0}), std::nullopt);
  // no steal column: zero, no error
  EXPECT_EQ(steal_us_per_cpu("cpu0 8 0 9 100 1 0 0\n", {0}), 0.0);
}

TEST(ClockTick, IsUserHzOfProcStat) {
  EXPECT_EQ(clock_tick_us(), 1e6 / static_cast<double>(::sysconf(_SC_CLK_TCK)));
}

TEST(ProcStatPath, EnvironmentOverride) {
  const char* before = std::getenv("COMOPS_PROC_STAT");
  const std::optional<std::string> saved =
      before ? std::optional<std::string>(before) : std::nullopt;
  ::unsetenv("COMOPS_PROC_STAT");
  EXPECT_EQ(proc_stat_path(), "/proc/stat");
  ::setenv("COMOPS_PROC_STAT", "/tmp/fake-stat", 1);
  EXPECT_EQ(proc_stat_path(), "/tmp/fake-stat");
  ::setenv("COMOPS_PROC_STAT", "", 1);
  EXPECT_EQ(proc_stat_path(), "/proc/stat");
  if (saved)
    ::setenv("COMOPS_PROC_STAT", saved->c_str(), 1);
  else
    ::unsetenv("COMOPS_PROC_STAT");
}

// The calling thread pinned to one CPU for the test's life, its own mask restored after.
class PinnedTo {
 public:
  explicit PinnedTo(int cpu) {
    ::sched_getaffinity(0, sizeof(saved_), &saved_);
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    ok_ = ::sched_setaffinity(0, sizeof(one), &one) == 0;
  }
  ~PinnedTo() { ::sched_setaffinity(0, sizeof(saved_), &saved_); }
  bool ok() const { return ok_; }

 private:
  cpu_set_t saved_;
  bool ok_ = false;
};

TEST(ThreadCpus, TheBoundCpuOrTheAllowedSet) {
  const std::vector<int> all = thread_cpus();
  ASSERT_FALSE(all.empty());
  EXPECT_EQ(all.front(), comops_test::first_allowed_cpu());
  const int cpu = all.back();
  {
    PinnedTo pinned(cpu);
    ASSERT_TRUE(pinned.ok());
    EXPECT_EQ(thread_cpus(), std::vector<int>{cpu});
  }
  EXPECT_EQ(thread_cpus(), all);
}

// A /proc/stat text with a line for each of `cpus`, CPU c's steal `steal(c)`.
template <class Steal>
std::string stat_text(const std::vector<int>& cpus, Steal steal) {
  std::ostringstream s;
  s << "cpu  100 0 100 1000 0 0 0 0 0 0\n";
  for (int c : cpus) s << "cpu" << c << " 50 0 50 500 0 0 0 " << steal(c) << " 0 0\n";
  s << "intr 1 0\nctxt 5\n";
  return s.str();
}

void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

TEST(StealWindow, PinnedThreadCountsItsOwnCpu) {
  const int cpu = comops_test::first_allowed_cpu();
  PinnedTo pinned(cpu);
  ASSERT_TRUE(pinned.ok());
  TempDir dir;
  const std::string path = dir.file("stat");
  // every other CPU is stolen from heavily: only the thread's own counts
  const std::vector<int> cpus = {cpu, cpu + 1, cpu + 2};
  write(path, stat_text(cpus, [&](int c) { return c == cpu ? 1000 : 5000; }));
  StallWindow w = thread_steal_window(path);
  w.start();
  write(path, stat_text(cpus, [&](int c) { return c == cpu ? 1004 : 9000; }));
  w.stop();
  ASSERT_TRUE(w.stall_us().has_value());
  EXPECT_EQ(*w.stall_us(), 4 * clock_tick_us());
  EXPECT_GT(w.window_us(), 0.0);
}

TEST(StealWindow, UnboundThreadCountsEveryAllowedCpu) {
  const std::vector<int> cpus = thread_cpus();
  ASSERT_FALSE(cpus.empty());
  TempDir dir;
  const std::string path = dir.file("stat");
  write(path, stat_text(cpus, [](int) { return 7; }));
  StallWindow w = thread_steal_window(path);
  w.start();
  // the first CPU loses 6 ticks more, the others 2 each: per CPU, (6 + 2 (n - 1)) / n ticks
  write(path, stat_text(cpus, [&](int c) { return c == cpus.front() ? 13 : 9; }));
  w.stop();
  const double n = static_cast<double>(cpus.size());
  ASSERT_TRUE(w.stall_us().has_value());
  EXPECT_DOUBLE_EQ(*w.stall_us(), (6 + 2 * (n - 1)) / n * clock_tick_us());
}

TEST(StealWindow, UnknownWhenACpuIsMissingOrTheFileIsGone) {
  const int cpu = comops_test::first_allowed_cpu();
  PinnedTo pinned(cpu);
  ASSERT_TRUE(pinned.ok());
  TempDir dir;
  const std::string path = dir.file("stat");
  write(path, stat_text({cpu + 1}, [](int) { return 3; }));  // no line for the thread's CPU
  StallWindow missing = thread_steal_window(path);
  missing.start();
  missing.stop();
  EXPECT_FALSE(missing.stall_us().has_value());

  write(path, stat_text({cpu}, [](int) { return 3; }));
  StallWindow gone = thread_steal_window(path);
  gone.start();
  std::filesystem::remove(path);
  gone.stop();
  EXPECT_FALSE(gone.stall_us().has_value());
}

// `stolen` ticks of steal over a window of `window` ticks.
bool contended(int stolen, int window) {
  return is_steal_contended(stolen * clock_tick_us(), window * clock_tick_us());
}

TEST(StealContention, StealLessOneTickAboveFivePercent) {
  EXPECT_TRUE(contended(4, 50));    // 3 ticks certain: 6 %
  EXPECT_FALSE(contended(3, 50));   // 2 ticks certain: 4 %
  EXPECT_TRUE(contended(7, 100));   // 6 %
  EXPECT_FALSE(contended(6, 100));  // 5 %: not above
  EXPECT_TRUE(contended(2, 10));    // 10 %
  EXPECT_FALSE(contended(1, 10));   // one tick may be two readings' truncation alone
  EXPECT_FALSE(contended(1, 1));
  EXPECT_FALSE(contended(0, 50));
  EXPECT_FALSE(contended(10, 0));  // an empty window
  EXPECT_FALSE(is_steal_contended(std::nullopt, 1e6));
}

TEST(ProcStat, ThisMachineHasPerCpuSteal) {
  const std::string text = read_text_file("/proc/stat");
  ASSERT_FALSE(text.empty()) << "/proc/stat is unreadable";
  const std::optional<double> steal = steal_us_per_cpu(text, thread_cpus());
  ASSERT_TRUE(steal.has_value()) << "a CPU of this thread has no line in /proc/stat";
  EXPECT_GE(*steal, 0.0);
  // the first per-CPU line, read here by hand
  std::istringstream lines(text);
  std::string line;
  std::getline(lines, line);  // the machine-wide "cpu" line
  std::getline(lines, line);
  std::istringstream fields(line);
  std::string label;
  fields >> label;
  std::vector<std::uint64_t> numbers;
  for (std::uint64_t v = 0; fields >> v;) numbers.push_back(v);
  ASSERT_EQ(label.rfind("cpu", 0), 0u) << line;
  if (numbers.size() < 8)
    GTEST_SKIP() << label << " has " << numbers.size()
                 << " numbers: this kernel has no steal column";
  EXPECT_EQ(parse_proc_stat_steal(text).at(std::stoi(label.substr(3))), numbers[7]) << line;
}

}  // namespace
}  // namespace comops
