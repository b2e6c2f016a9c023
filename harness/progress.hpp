// Progress of a long sweep on stderr, shown when stderr is a terminal (or when asked).
#pragma once

#include <string>

namespace comops {

class Progress {
 public:
  /// mode: "auto" (a terminal), "always" or "never"; total: points in the sweep.
  Progress(const std::string& mode, std::size_t total);
  void step(const std::string& what);  ///< before each point
  void done();                         ///< clears the line

 private:
  bool enabled_ = false;
  std::size_t total_ = 0;
  std::size_t index_ = 0;
};

}  // namespace comops
