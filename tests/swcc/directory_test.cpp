// The directory: rows per home, lookup, growth with stable contents, overhead per block.
#include "swcc/detail/directory.hpp"

#include <gtest/gtest.h>

namespace swcc {
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
TEST(SwccDirectory, RowsAllocateTheirTableAtTheFirstInsert) {
  Directory d(0, 1000, 64);
  EXPECT_EQ(d.table_bytes(), 0u);  // 1000 ranks, nothing touched: no tables
  EXPECT_EQ(d.row(999).find(3), nullptr);
  d.row(999).for_each([](const Entry&) { ADD_FAILURE() << "an empty row has no entries"; });
  d.lookup_or_create(999, 3);
  EXPECT_EQ(d.row(999).capacity(), 256u);
  EXPECT_EQ(d.table_bytes(), 256 * sizeof(Entry));
}
TEST(SwccDirectory, SharersOf64RanksOrFewerAreTheInlineWord) {
  Directory d(0, 64, 64);
  EXPECT_EQ(d.sharer_words(), 0u);
  Entry& e = d.lookup_or_create(0, 4);
  d.set_sharers(e, SharerSet::of({1, 63}));
  EXPECT_EQ(e.sharers, (std::uint64_t{1} << 63) | 2u);
  EXPECT_EQ(d.sharers(e), SharerSet::of({1, 63}));
  EXPECT_TRUE(d.sharers(e).is_inline());
  EXPECT_EQ(d.sharer_bytes(), 0u);
  EXPECT_EQ(d.dump(0, 4), "rank 0 home block 4: Modified owner=0 sharers={1,63}");
}
TEST(SwccDirectory, HomeEntriesBeyond64RanksKeepTheirSharersThroughGrowth) {
  const int nranks = 100;
  Directory d(0, nranks, 64);
  EXPECT_EQ(d.sharer_words(), 2u);
  auto set_of = [&](std::uint64_t b) {  // a different set per block, ranks 1..99
    SharerSet s;
    s.insert(1 + static_cast<int>(b % 99));
    s.insert(64 + static_cast<int>(b % 36));
    if (b % 3 == 0) s.insert(99);
    return s;
  };
  Entry& first = d.lookup_or_create(0, 0);
  EXPECT_EQ(d.sharers(first), SharerSet());  // fresh: no sharers
  const std::uint64_t* first_words = first.sharer_words;
  for (std::uint64_t b = 0; b < 3000; ++b) {  // grows the row 256 -> 4096 entries
    Entry& e = d.lookup_or_create(0, b * 7);
    EXPECT_EQ(d.sharers(e), SharerSet()) << b;
    d.set_sharers(e, set_of(b));
    e.state = State::kShared;
    e.owner = -1;
  }
  EXPECT_GE(d.row(0).capacity(), 4096u);
  EXPECT_EQ(d.sharer_bytes(), 3000u * 2 * 8);
  for (std::uint64_t b = 0; b < 3000; ++b) {
    const Entry* e = d.row(0).find(b * 7);
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(d.sharers(*e), set_of(b)) << b;
  }
  EXPECT_EQ(d.row(0).find(0)->sharer_words, first_words);  // the words did not move
  EXPECT_EQ(d.dump(0, 0), "rank 0 home block 0: Shared owner=-1 sharers={1,64,99}");
  d.set_sharers(*d.row(0).find(0), SharerSet());
  EXPECT_EQ(d.dump(0, 0), "rank 0 home block 0: Shared owner=-1 sharers={}");
  // Cached entries of other homes still point at data, not at sharer words.
  Entry& c = d.lookup_or_create(99, 5);
  EXPECT_EQ(c.state, State::kInvalid);
  EXPECT_EQ(d.sharer_bytes(), 3000u * 2 * 8);
  EXPECT_EQ(d.data_bytes(), 64u);
}
TEST(SwccDirectory, SharersOfTheLargestRankCount) {
  Directory d(7, SharerSet::kMaxRanks, 8);
  EXPECT_EQ(d.sharer_words(), 1024u);
  Entry& e = d.lookup_or_create(7, 1);
  d.set_sharers(e, SharerSet::of({0, 65534}));
  EXPECT_EQ(d.sharers(e), SharerSet::of({0, 65534}));
  EXPECT_EQ(d.dump(7, 1), "rank 7 home block 1: Modified owner=7 sharers={0,65534}");
}

}  // namespace
}  // namespace swcc
