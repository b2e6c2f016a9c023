// Dropping Open MPI's boxed end-of-job notices from the launcher's stderr (launcher_notices.hpp).
#include "harness/launch/launcher_notices.hpp"

#include <algorithm>

namespace comops {
namespace {

// Open MPI's boxes open and close with a line of 74 dashes.
constexpr std::string_view kRule =
    "--------------------------------------------------------------------------";

// The notices that only repeat a non-zero exit code or an abort comops already explained.
bool redundant(std::string_view box) {
  return box.find("returned\na non-zero exit code") != std::string_view::npos ||
         box.find("MPI_ABORT was invoked on rank") != std::string_view::npos ||
         box.find("exited with non-zero status, thus causing") != std::string_view::npos;
}

// Open MPI's launcher failing to print one of its notices (its help-message aggregation loses
// some when several ranks abort at once): "[host:pid] [[job,0],0] ORTE_ERROR_LOG: Data unpack
// ... in file ../../../orte/util/show_help.c at line 513". It says nothing about the job.
bool lost_notice(std::string_view line) {
  return line.find("ORTE_ERROR_LOG: ") != std::string_view::npos &&
         line.find("/show_help.c at line ") != std::string_view::npos;
}

}  // namespace

std::string LauncherNoticeFilter::feed(std::string_view chunk) {
  std::string out;
  held_.append(chunk);
  std::size_t at = 0;  // first byte of held_ not yet decided
  while (at < held_.size()) {
    if (in_box_) {
      // The box closes with a rule line after its first line.
      const std::string close = "\n" + std::string(kRule) + "\n";
      const auto end = held_.find(close, at + kRule.size());
      if (end == std::string::npos) break;  // wait for the rest of the box
      const std::size_t stop = end + close.size();
      const std::string_view box(held_.data() + at, stop - at);
      if (!redundant(box)) out.append(box);
      at = stop;
      in_box_ = false;
      line_start_ = true;
      continue;
    }
    if (line_start_ && held_[at] == '-') {
      // Maybe a rule: decide once the line is complete or differs from one.
      const auto rest = std::string_view(held_).substr(at);
      const auto n = std::min(rest.size(), kRule.size() + 1);
      const std::string expected = std::string(kRule) + "\n";
      if (rest.substr(0, n) == std::string_view(expected).substr(0, n)) {
        if (n < expected.size()) break;  // so far a rule: wait for the rest of the line
        in_box_ = true;
        continue;
      }
    }
    const auto nl = held_.find('\n', at);
    if (line_start_ && held_[at] == '[') {
      // Maybe Open MPI's lost notice: decide once the line is complete.
      if (nl == std::string::npos) break;
      if (lost_notice(std::string_view(held_).substr(at, nl - at))) {
        at = nl + 1;
        continue;
      }
    }
    // An ordinary line (or its start): pass it on up to and with its newline.
    const std::size_t stop = nl == std::string::npos ? held_.size() : nl + 1;
    out.append(held_, at, stop - at);
    line_start_ = nl != std::string::npos;
    at = stop;
  }
  held_.erase(0, at);
  return out;
}

std::string LauncherNoticeFilter::flush() {
  std::string out;
  out.swap(held_);
  in_box_ = false;
  line_start_ = true;
  return out;
}

}  // namespace comops
