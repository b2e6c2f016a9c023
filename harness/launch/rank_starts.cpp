// Start-up lines of the ranks a directly run comops launched (rank_starts.hpp).
#include "harness/launch/rank_starts.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>

namespace comops {

void announce_rank_start() {
  if (std::getenv("COMOPS_LAUNCHED") == nullptr) return;
  char host[HOST_NAME_MAX + 1] = {};
  if (::gethostname(host, sizeof host - 1) != 0) return;
  const std::string line = fmt::format("{}{} {}\n", kRankStartMark, host, ::getpid());
  if (::write(STDERR_FILENO, line.data(), line.size()) < 0) {
    // no stderr: the supervisor cannot count this rank, and says so if the start times out
  }
}

std::string RankStartFilter::feed(std::string_view chunk) {
  std::string out;
  held_.append(chunk);
  std::size_t at = 0;  // first byte of held_ not yet decided
  while (at < held_.size()) {
    const std::string_view rest = std::string_view(held_).substr(at);
    const std::size_t nl = rest.find('\n');
    if (line_start_) {
      const std::size_t n = std::min(rest.size(), kRankStartMark.size());
      if (rest.substr(0, n) == kRankStartMark.substr(0, n)) {
        if (nl == std::string_view::npos) break;  // maybe a start-up line: wait for all of it
        if (n == kRankStartMark.size()) {
          const std::string_view words = rest.substr(n, nl - n);
          hosts_.emplace_back(words.substr(0, words.find(' ')));
          at += nl + 1;
          continue;
        }
      }
    }
    const std::size_t stop = nl == std::string_view::npos ? rest.size() : nl + 1;
    out.append(rest.substr(0, stop));
    line_start_ = nl != std::string_view::npos;
    at += stop;
  }
  held_.erase(0, at);
  return out;
}

std::string RankStartFilter::flush() {
  std::string out;
  out.swap(held_);
  return out;
}

}  // namespace comops
