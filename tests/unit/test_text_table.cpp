// Unit tests of the plain-text tables (harness/util/text_table.hpp): decimals per column, numbers
// aligned on the decimal point, marks beside them, column widths.
#include <gtest/gtest.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/util/text_table.hpp"

namespace comops {
namespace {

TEST(TextTable, DecimalsGiveTheSmallestValueThreeDigits) {
  EXPECT_EQ(decimals_for({0.117, 5.694, 277.6}), 3);   // 0.117
  EXPECT_EQ(decimals_for({5.694, 277.6}), 2);          // 5.69
  EXPECT_EQ(decimals_for({0.0008992, 9.853e-05}), 6);  // 0.0000985 needs 7: clamped
  EXPECT_EQ(decimals_for({0.00267, 104.9}), 5);
  EXPECT_EQ(decimals_for({277.6, 1500}), 1);  // 277.6 needs 0: at least 1
  EXPECT_EQ(decimals_for({}), 1);
  EXPECT_EQ(decimals_for({0.0, -0.25}), 3);  // zero ignored, magnitude counts
  EXPECT_EQ(decimals_for({0.117}, 2, 0, 4), 2);
}

TEST(TextTable, NumberCellsAlignOnTheDecimalPoint) {
  EXPECT_EQ(number_cells({0.117, 5.694, 277.6, std::nullopt}, 3),
            (std::vector<std::string>{"  0.117", "  5.694", "277.600", "      -"}));
  EXPECT_EQ(number_cells({0.117, 12.5}, 2, {"C", ""}),
            (std::vector<std::string>{" 0.12 C", "12.50  "}));
  EXPECT_EQ(number_cells({1.0, 2.0, 3.0}, 1, {"", "CW"}),
            (std::vector<std::string>{"1.0   ", "2.0 CW", "3.0   "}));
  EXPECT_EQ(number_cells({}, 3), std::vector<std::string>{});
}

TEST(TextTable, ColumnsAsWideAsTheirWidestCell) {
  TextTable t;
  t.column("bytes").column("backend", TextTable::Align::kLeft).column("time_us");
  t.row({"8", "mpi", "0.944"});
  t.row({"1K", "shm-direct", "12.500"});
  EXPECT_EQ(t.render("  "),
            "  bytes  backend     time_us\n"
            "      8  mpi           0.944\n"
            "     1K  shm-direct   12.500\n");
  TextTable last_left;
  last_left.column("n").column("flags", TextTable::Align::kLeft);
  last_left.row({"1", ""});
  EXPECT_EQ(last_left.render(), "n  flags\n1\n");  // no trailing blanks
  EXPECT_THROW(last_left.row({"1"}), std::logic_error);
}

}  // namespace
}  // namespace comops
