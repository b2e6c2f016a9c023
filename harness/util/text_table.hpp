// Plain-text tables for stdout and table.txt: columns as wide as their widest cell, numbers with
// fixed decimals per column so that a right-aligned column lines up on the decimal point.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace comops {

/// Decimals that give the smallest non-zero magnitude among `values` `digits` significant
/// digits, clamped to [min_decimals, max_decimals] (min_decimals when nothing is non-zero).
int decimals_for(const std::vector<double>& values, int digits = 3, int min_decimals = 1,
                 int max_decimals = 6);

/// One column's numbers, all with `decimals` decimals and padded to one width (right-aligned,
/// so the decimal points line up); a missing value is "-". marks[i], when given and not empty,
/// follows value i after a space, and the marks are padded to one width too, so every cell of
/// the column has the same length.
std::vector<std::string> number_cells(const std::vector<std::optional<double>>& values,
                                      int decimals, const std::vector<std::string>& marks = {});

/// A table: a header line of column names and one line per row, two spaces between columns,
/// no trailing blanks.
class TextTable {
 public:
  enum class Align { kLeft, kRight };
  /// Adds a column; returns *this for chaining.
  TextTable& column(std::string name, Align align = Align::kRight);
  /// Adds a row of one cell per column.
  void row(std::vector<std::string> cells);
  /// Header and rows, each line starting with `indent` and ending in '\n'.
  std::string render(const std::string& indent = "") const;

 private:
  std::vector<std::string> names_;
  std::vector<Align> align_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace comops
