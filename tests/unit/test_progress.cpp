// Unit tests of the progress display (harness/util/progress.hpp): which style a mode gives, the
// exact lines with elapsed time and the cost-weighted estimate of what remains, fed by a fake
// clock.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "harness/util/progress.hpp"

namespace comops {
namespace {

using Style = Progress::Style;

// A stream into memory and the text written into it.
class Captured {
 public:
  Captured() : file_(::open_memstream(&buf_, &size_)) {}
  ~Captured() {
    std::fclose(file_);
    std::free(buf_);
  }
  std::FILE* file() { return file_; }
  std::string text() {
    std::fflush(file_);
    return std::string(buf_, size_);
  }

 private:
  char* buf_ = nullptr;
  std::size_t size_ = 0;
  std::FILE* file_;
};

TEST(Progress, StyleForModeAndTerminal) {
  EXPECT_EQ(Progress::style_for("auto", true), Style::kLine);
  EXPECT_EQ(Progress::style_for("auto", false), Style::kOff);
  EXPECT_EQ(Progress::style_for("always", true), Style::kLine);
  EXPECT_EQ(Progress::style_for("always", false), Style::kLines);  // a file gets lines
  EXPECT_EQ(Progress::style_for("lines", true), Style::kLines);
  EXPECT_EQ(Progress::style_for("lines", false), Style::kLines);
  EXPECT_EQ(Progress::style_for("never", true), Style::kOff);
  EXPECT_EQ(Progress::style_for("never", false), Style::kOff);
}

TEST(Progress, LinesWeighTheEstimateByCost) {
  Captured out;
  std::vector<double> now{100, 100, 110, 140, 150, 160};  // construction, 4 steps, done
  std::size_t tick = 0;
  Progress p(Style::kLines, {1, 3, 1, 1}, 4, out.file(), [&] { return now.at(tick++); });
  p.step("mpi pingpong np=2 8");
  p.clear();                       // lines need no clearing
  p.step("mpi pingpong np=2 8M");  // 1 of 6 cost units done in 10 s: 50 s for the other 5
  p.step("mpi barrier np=2 0");    // 4 done in 40 s: 20 s for 2
  p.step("mpi barrier np=4 0");    // 5 done in 50 s: 10 s for 1
  p.done();
  EXPECT_EQ(out.text(),
            "comops: progress: [1/4] mpi pingpong np=2 8: 0:00 elapsed\n"
            "comops: progress: [2/4] mpi pingpong np=2 8M: 0:10 elapsed, about 0:50 left\n"
            "comops: progress: [3/4] mpi barrier np=2 0: 0:40 elapsed, about 0:20 left\n"
            "comops: progress: [4/4] mpi barrier np=4 0: 0:50 elapsed, about 0:10 left\n"
            "comops: progress: finished after 4 of 4 points, 1:00 elapsed\n");
  EXPECT_EQ(tick, now.size());
}

TEST(Progress, WithoutCostsEveryPointCountsTheSame) {
  Captured out;
  std::vector<double> now{0, 0, 30, 3700};
  std::size_t tick = 0;
  Progress p(Style::kLines, {}, 3, out.file(), [&] { return now.at(tick++); });
  p.step("a");
  p.step("b");  // 1 point in 30 s: 60 s for the other 2
  p.step("c");  // 2 points in 3700 s: 1850 s for the last
  EXPECT_EQ(out.text(),
            "comops: progress: [1/3] a: 0:00 elapsed\n"
            "comops: progress: [2/3] b: 0:30 elapsed, about 1:00 left\n"
            "comops: progress: [3/3] c: 1:01:40 elapsed, about 30:50 left\n");
}

TEST(Progress, TerminalLineIsRewrittenAndCleared) {
  Captured out;
  std::vector<double> now{0, 0, 2, 3};
  std::size_t tick = 0;
  Progress p(Style::kLine, {1, 1}, 2, out.file(), [&] { return now.at(tick++); });
  p.step("a");
  p.clear();  // a row printed on the same terminal starts on a clean line
  p.step("b");
  p.done();
  EXPECT_EQ(out.text(),
            "\r\033[K[1/2] a: 0:00 elapsed"
            "\r\033[K"
            "\r\033[K[2/2] b: 0:02 elapsed, about 0:02 left"
            "\r\033[K");
}

TEST(Progress, OffWritesNothing) {
  Captured out;
  Progress p(Style::kOff, {1}, 1, out.file());
  p.step("a");
  p.clear();
  p.done();
  EXPECT_EQ(out.text(), "");
}

TEST(Progress, EndedEarlySaysAfterHowManyPoints) {
  Captured out;
  std::vector<double> now{0, 0, 5};
  std::size_t tick = 0;
  Progress p(Style::kLines, {}, 10, out.file(), [&] { return now.at(tick++); });
  p.step("a");
  p.done();
  EXPECT_EQ(out.text(),
            "comops: progress: [1/10] a: 0:00 elapsed\n"
            "comops: progress: finished after 1 of 10 points, 0:05 elapsed\n");
}

TEST(Progress, FormatDuration) {
  EXPECT_EQ(format_duration(0), "0:00");
  EXPECT_EQ(format_duration(-3), "0:00");
  EXPECT_EQ(format_duration(59.4), "0:59");
  EXPECT_EQ(format_duration(59.6), "1:00");
  EXPECT_EQ(format_duration(754), "12:34");
  EXPECT_EQ(format_duration(3723), "1:02:03");
}

TEST(Progress, ExpectedCostGrowsWithSizeUpToTheRepetitionCap) {
  EXPECT_DOUBLE_EQ(expected_cost_us(8, 10000, 5), 5e3 + 5 * 10000 * 1.004);
  EXPECT_DOUBLE_EQ(expected_cost_us(8 << 20, 20, 5), 5e3 + 5 * 20 * (1 + 8388608 / 2e3));
  EXPECT_DOUBLE_EQ(expected_cost_us(8 << 20, 100, 5), 5e3 + 5 * 1e5);  // a repetition's 0.1 s
  EXPECT_DOUBLE_EQ(expected_cost_us(0, 0, 0), 5e3 + 1.0);              // at least one of each
}

}  // namespace
}  // namespace comops
