// Unit tests of the command line's list splitter (harness/util/comma_list.hpp).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness/util/comma_list.hpp"

namespace comops {
namespace {

using Items = std::vector<std::string>;

TEST(CommaItems, SplitsAtEveryComma) {
  EXPECT_EQ(comma_items("mpi,shm,swcc"), (Items{"mpi", "shm", "swcc"}));
  EXPECT_EQ(comma_items("pingpong"), (Items{"pingpong"}));
}

TEST(CommaItems, DropsEmptyItems) {
  EXPECT_EQ(comma_items(""), Items{});
  EXPECT_EQ(comma_items(","), Items{});
  EXPECT_EQ(comma_items(",a,,b,"), (Items{"a", "b"}));
}

TEST(CommaItems, KeepsEverythingButTheCommas) {
  EXPECT_EQ(comma_items(" a , b"), (Items{" a ", " b"}));  // spaces are the caller's to refuse
  EXPECT_EQ(comma_items("8:1M,64K"), (Items{"8:1M", "64K"}));
}

}  // namespace
}  // namespace comops
