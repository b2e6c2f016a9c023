// The directory: rows per home, lookup, growth with stable contents, overhead per block.
#include "comops/swcc/directory.hpp"

#include <gtest/gtest.h>

namespace comops::swcc {
namespace {

TEST(SwccDirectory, EmptyRowFindsNothing) {
  Directory d(0, 3, 64);
  EXPECT_TRUE(d.row(1).empty());
  EXPECT_EQ(d.row(1).find(7), nullptr);
}
TEST(SwccDirectory, CachedEntriesStartInvalidWithZeroedData) {
  Directory d(0, 3, 64);
  Entry& e = d.lookup_or_create(2, 5);
  EXPECT_EQ(e.state, State::kInvalid);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(e.data[i], 0);
  EXPECT_EQ(d.row(2).find(5), &e);
  EXPECT_EQ(d.row(1).find(5), nullptr);  // rows are per home
  EXPECT_EQ(&d.lookup_or_create(2, 5), &e);
}
TEST(SwccDirectory, HomeEntriesStartOwnedByHome) {
  Directory d(1, 3, 64);
  Entry& e = d.lookup_or_create(1, 9);
  EXPECT_EQ(e.state, State::kModified);
  EXPECT_EQ(e.owner, 1);
  EXPECT_EQ(e.sharers, 0u);
  EXPECT_EQ(d.data_bytes(), 0u);  // home data lives in the segment
}
TEST(SwccDirectory, GrowthKeepsEveryEntryAndItsData) {
  Directory d(0, 2, 8);
  for (std::uint64_t b = 0; b < 5000; ++b) {
    Entry& e = d.lookup_or_create(1, b * 3);
    e.state = State::kShared;
    e.data[0] = static_cast<std::uint8_t>(b);
  }
  EXPECT_EQ(d.row(1).size(), 5000u);
  for (std::uint64_t b = 0; b < 5000; ++b) {
    Entry* e = d.row(1).find(b * 3);
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->data[0], static_cast<std::uint8_t>(b));
    EXPECT_EQ(d.row(1).find(b * 3 + 1), nullptr);
  }
}
TEST(SwccDirectory, OverheadIsAtMost64BytesPerCachedBlock) {
  Directory d(0, 2, 64);
  for (std::uint64_t b = 0; b < 10000; ++b) d.lookup_or_create(1, b);
  const double per_block = static_cast<double>(d.row(1).capacity() * sizeof(Entry)) / 10000;
  EXPECT_LE(per_block, 64.0);
  EXPECT_EQ(d.data_bytes(), 10000u * 64);
}

}  // namespace
}  // namespace comops::swcc
