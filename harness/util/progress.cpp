// The progress of a sweep on stderr, with elapsed time and a cost-weighted estimate of the rest.
#include "harness/util/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>

namespace comops {

double expected_call_us(std::size_t bytes) {
  return 1.0 + static_cast<double>(bytes) / 2e3;  // 2 GB/s = 2e3 B/us
}

double expected_cost_us(std::size_t bytes, int iterations, int repetitions) {
  return 5e3 + std::max(repetitions, 1) *
                   std::min(std::max(iterations, 1) * expected_call_us(bytes), 1e5);
}

std::string format_duration(double seconds) {
  const auto s = static_cast<long long>(std::llround(std::max(seconds, 0.0)));
  if (s >= 3600) return fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
  return fmt::format("{}:{:02}", s / 60, s % 60);
}

Progress::Style Progress::style_for(const std::string& mode, bool terminal) {
  if (mode == "lines") return Style::kLines;
  if (mode == "always") return terminal ? Style::kLine : Style::kLines;
  if (mode == "auto" && terminal) return Style::kLine;
  return Style::kOff;
}

Progress::Progress(Style style, std::vector<double> costs, std::size_t total, std::FILE* out,
                   Clock clock)
    : style_(style), costs_(std::move(costs)), total_(total), out_(out), clock_(std::move(clock)) {
  if (!clock_)
    clock_ = [] {
      return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
          .count();
    };
  if (costs_.size() != total_) costs_.assign(total_, 1.0);
  start_ = clock_();
}

Progress::Progress(const std::string& mode, std::vector<double> costs, std::size_t total)
    : Progress(style_for(mode, ::isatty(STDERR_FILENO) == 1), std::move(costs), total) {}

// "0:12 elapsed, about 0:40 left" once a point is done; before that only the elapsed time.
std::string Progress::timing() const {
  const double elapsed = clock_() - start_;
  const std::size_t done = std::min(index_ - 1, costs_.size());
  const double done_cost = std::accumulate(costs_.begin(), costs_.begin() + done, 0.0);
  const double left_cost = std::accumulate(costs_.begin() + done, costs_.end(), 0.0);
  std::string s = format_duration(elapsed) + " elapsed";
  if (done_cost > 0) s += ", about " + format_duration(elapsed * left_cost / done_cost) + " left";
  return s;
}

void Progress::step(const std::string& what) {
  ++index_;
  if (style_ == Style::kOff) return;
  if (style_ == Style::kLine)
    fmt::print(out_, "\r\033[K[{}/{}] {}: {}", index_, total_, what, timing());
  else
    fmt::print(out_, "comops: progress: [{}/{}] {}: {}\n", index_, total_, what, timing());
  std::fflush(out_);
}

void Progress::clear() {
  if (style_ != Style::kLine) return;
  fmt::print(out_, "\r\033[K");
  std::fflush(out_);
}

void Progress::done() {
  if (style_ != Style::kLines) return clear();
  fmt::print(out_, "comops: progress: finished after {} of {} points, {} elapsed\n", index_, total_,
             format_duration(clock_() - start_));
  std::fflush(out_);
}

}  // namespace comops
