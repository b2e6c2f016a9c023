// Plain-text tables: widths from the cells, fixed decimals per column.
#include "harness/util/text_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace comops {

int decimals_for(const std::vector<double>& values, int digits, int min_decimals,
                 int max_decimals) {
  double smallest = 0;
  for (double v : values)
    if (std::isfinite(v) && v != 0 && (smallest == 0 || std::fabs(v) < smallest))
      smallest = std::fabs(v);
  if (smallest == 0) return min_decimals;
  // 0.117 -> 3 decimals for 3 digits; 5.69 -> 2; 123 -> 0 (then clamped).
  const int leading = static_cast<int>(std::floor(std::log10(smallest)));
  return std::clamp(digits - 1 - leading, min_decimals, max_decimals);
}

std::vector<std::string> number_cells(const std::vector<std::optional<double>>& values,
                                      int decimals, const std::vector<std::string>& marks) {
  std::vector<std::string> nums;
  std::size_t num_width = 0, mark_width = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    nums.push_back(values[i] ? fmt::format("{:.{}f}", *values[i], decimals) : "-");
    num_width = std::max(num_width, nums.back().size());
    if (i < marks.size()) mark_width = std::max(mark_width, marks[i].size());
  }
  std::vector<std::string> cells;
  for (std::size_t i = 0; i < nums.size(); ++i) {
    std::string cell = fmt::format("{:>{}}", nums[i], num_width);
    if (mark_width > 0)
      cell += fmt::format(" {:<{}}", i < marks.size() ? marks[i] : "", mark_width);
    cells.push_back(std::move(cell));
  }
  return cells;
}

TextTable& TextTable::column(std::string name, Align align) {
  names_.push_back(std::move(name));
  align_.push_back(align);
  return *this;
}

void TextTable::row(std::vector<std::string> cells) {
  if (cells.size() != names_.size())
    throw std::logic_error(
        fmt::format("a table row of {} cells for {} columns", cells.size(), names_.size()));
  rows_.push_back(std::move(cells));
}

std::string TextTable::render(const std::string& indent) const {
  std::vector<std::size_t> width;
  for (const auto& n : names_) width.push_back(n.size());
  for (const auto& r : rows_)
    for (std::size_t c = 0; c < r.size(); ++c) width[c] = std::max(width[c], r[c].size());
  auto line = [&](const std::vector<std::string>& cells) {
    std::string s = indent;
    for (std::size_t c = 0; c < cells.size(); ++c) {
      if (c > 0) s += "  ";
      s += align_[c] == Align::kLeft ? fmt::format("{:<{}}", cells[c], width[c])
                                     : fmt::format("{:>{}}", cells[c], width[c]);
    }
    s.erase(s.find_last_not_of(' ') + 1);
    return s + "\n";
  };
  std::string s = line(names_);
  for (const auto& r : rows_) s += line(r);
  return s;
}

}  // namespace comops
