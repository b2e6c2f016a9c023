// Progress of a long sweep on stderr: a rewritten status line on a terminal, or one line per
// point into a file or pipe, each with the elapsed time and an estimate of what remains.
#pragma once

#include <cstddef>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace comops {

/// A rough cost of one operation on `bytes`: 1 us + bytes / 2 GB/s.
double expected_call_us(std::size_t bytes);

/// A rough relative cost of measuring a point, for the estimate of what remains: a fixed 5 ms
/// (buffers, barriers, validation) plus, per repetition, `iterations` operations of
/// expected_call_us each, capped at the 0.1 s that measuring aims a repetition at.
double expected_cost_us(std::size_t bytes, int iterations, int repetitions);

/// "0:07", "12:34", "1:02:03".
std::string format_duration(double seconds);

class Progress {
 public:
  enum class Style { kOff, kLine, kLines };
  /// Seconds from any fixed origin (steady).
  using Clock = std::function<double()>;

  /// mode "auto": the rewritten line when stderr is a terminal, else nothing; "always": the line
  /// on a terminal, one line per point otherwise; "lines": one line per point; "never".
  static Style style_for(const std::string& mode, bool terminal);

  /// costs: every point's expected cost (expected_cost_us) in sweep order; the estimate of what
  /// remains is the elapsed time times the cost still ahead over the cost done. Empty costs
  /// count every point the same (a simple average per point).
  Progress(Style style, std::vector<double> costs, std::size_t total, std::FILE* out = stderr,
           Clock clock = {});
  /// mode as in style_for, judged on the real stderr.
  Progress(const std::string& mode, std::vector<double> costs, std::size_t total);

  void step(const std::string& what);  ///< before each point
  /// Clears the rewritten line, so that a row printed on stdout after it starts on a clean line
  /// of the same terminal (the next step draws it again); lines are left alone.
  void clear();
  void done();  ///< clears the line, or says after how many points and how long it ended

 private:
  std::string timing() const;

  Style style_ = Style::kOff;
  std::vector<double> costs_;
  std::size_t total_ = 0;
  std::size_t index_ = 0;
  std::FILE* out_ = stderr;
  Clock clock_;
  double start_ = 0;
};

}  // namespace comops
