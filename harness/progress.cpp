// One rewritten status line on stderr per point.
#include "harness/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>

namespace comops {

Progress::Progress(const std::string& mode, std::size_t total)
    : enabled_(mode == "always" || (mode == "auto" && ::isatty(STDERR_FILENO) == 1)),
      total_(total) {}

void Progress::step(const std::string& what) {
  ++index_;
  if (!enabled_) return;
  fmt::print(stderr, "\r\033[K[{}/{}] {}", index_, total_, what);
  std::fflush(stderr);
}

void Progress::done() {
  if (!enabled_) return;
  fmt::print(stderr, "\r\033[K");
  std::fflush(stderr);
}

}  // namespace comops
