// Skipped GoogleTest tests, for the gtest mains that ctest runs as a whole program.
#pragma once

#include <gtest/gtest.h>

#include <string>

namespace comops::test {

/// The message of a skipped test's GTEST_SKIP, on one line ("(no message)" when it has none).
inline std::string skip_reason(const testing::TestResult& r) {
  std::string out;
  for (int i = 0; i < r.total_part_count(); ++i) {
    const testing::TestPartResult& part = r.GetTestPartResult(i);
    if (!part.skipped()) continue;
    for (char c : std::string(part.message())) {
      if (c == '\n') c = ' ';
      if (c != ' ' || (!out.empty() && out.back() != ' ')) out += c;
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out.empty() ? "(no message)" : out;
}

}  // namespace comops::test
