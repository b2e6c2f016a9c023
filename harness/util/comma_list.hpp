// The one splitter of the command line's comma-separated lists (--backend, --op, the
// applications' parameters): "a,,b," -> {"a", "b"}, empty items dropped.
#pragma once

#include <string>
#include <vector>

namespace comops {

inline std::vector<std::string> comma_items(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto comma = text.find(',', start);
    const auto end = comma == std::string::npos ? text.size() : comma;
    if (end > start) out.push_back(text.substr(start, end - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace comops
