// The sharer set: inline (ranks 0..63, no allocation) and heap (ranks 64..65534) cases, members
// in increasing order, counts, equality across representations, copies and the word layout the
// directory stores.
#include "swcc/detail/sharer_set.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <utility>
#include <vector>

namespace swcc {
namespace {

std::vector<int> members(const SharerSet& s) { return {s.begin(), s.end()}; }

TEST(SwccSharerSet, EmptySet) {
  SharerSet s;
  EXPECT_TRUE(s.empty());
  EXPECT_EQ(s.count(), 0);
  EXPECT_TRUE(s.is_inline());
  EXPECT_EQ(s.begin(), s.end());
  EXPECT_FALSE(s.contains(0));
  EXPECT_FALSE(s.contains(64));
  EXPECT_FALSE(s.contains(-1));
  EXPECT_EQ(s, SharerSet(0));
  EXPECT_EQ(s.to_string(), "{}");
}

TEST(SwccSharerSet, RanksBelow64StayInline) {
  SharerSet s;
  s.insert(0);
  s.insert(63);
  s.insert(5);
  EXPECT_TRUE(s.is_inline());
  EXPECT_EQ(s.words(), 1u);
  EXPECT_TRUE(s.contains(0) && s.contains(5) && s.contains(63));
  EXPECT_FALSE(s.contains(1) || s.contains(64));
  EXPECT_EQ(s.count(), 3);
  EXPECT_EQ(members(s), (std::vector<int>{0, 5, 63}));
  EXPECT_EQ(s, SharerSet((std::uint64_t{1} << 63) | (1u << 5) | 1u));
  s.insert(5);  // already there
  EXPECT_EQ(s.count(), 3);
  s.erase(0);
  s.erase(40);  // absent
  s.erase(64);  // beyond the words: nothing to do
  EXPECT_EQ(members(s), (std::vector<int>{5, 63}));
  EXPECT_TRUE(s.is_inline());
}

TEST(SwccSharerSet, MaskConstructorReadsBitR) {
  const SharerSet s(0b1011);
  EXPECT_EQ(members(s), (std::vector<int>{0, 1, 3}));
  EXPECT_EQ(SharerSet(~std::uint64_t{0}).count(), 64);
}

TEST(SwccSharerSet, Rank64MovesTheSetToTheHeap) {
  SharerSet s(std::uint64_t{1} << 63);
  s.insert(64);
  EXPECT_FALSE(s.is_inline());
  EXPECT_EQ(s.words(), 2u);
  EXPECT_TRUE(s.contains(63) && s.contains(64));
  EXPECT_FALSE(s.contains(65) || s.contains(128));
  EXPECT_EQ(s.count(), 2);
  EXPECT_EQ(members(s), (std::vector<int>{63, 64}));
  s.insert(100);
  EXPECT_EQ(s.words(), 2u);
  EXPECT_EQ(members(s), (std::vector<int>{63, 64, 100}));
  EXPECT_EQ(s.to_string(), "{63,64,100}");
}

TEST(SwccSharerSet, HighestRank) {
  SharerSet s = SharerSet::of({65534, 0, 100});
  EXPECT_EQ(s.words(), 1024u);
  EXPECT_EQ(SharerSet::words_for(SharerSet::kMaxRanks), 1024u);
  EXPECT_TRUE(s.contains(65534));
  EXPECT_FALSE(s.contains(65533) || s.contains(65535) || s.contains(1 << 20));
  EXPECT_EQ(s.count(), 3);
  EXPECT_EQ(members(s), (std::vector<int>{0, 100, 65534}));
  s.erase(65534);
  EXPECT_EQ(members(s), (std::vector<int>{0, 100}));
  EXPECT_THROW(s.insert(65535), std::out_of_range);
  EXPECT_THROW(s.insert(-1), std::out_of_range);
}

TEST(SwccSharerSet, IterationIsInIncreasingRankOrder) {
  const std::vector<int> want = {1, 2, 63, 64, 65, 127, 128, 200, 1000, 4095, 4096, 65534};
  SharerSet s;
  for (auto it = want.rbegin(); it != want.rend(); ++it) s.insert(*it);  // inserted backwards
  EXPECT_EQ(members(s), want);
  EXPECT_EQ(s.count(), static_cast<int>(want.size()));
  std::vector<int> seen;
  for (int r : s) seen.push_back(r);
  EXPECT_EQ(seen, want);
  // Words with nothing in them are skipped, including leading and trailing ones.
  SharerSet t = SharerSet::of({640});
  t.insert(64 * 20);
  t.erase(64 * 20);
  EXPECT_EQ(members(t), (std::vector<int>{640}));
}

TEST(SwccSharerSet, EqualityIgnoresTheRepresentation) {
  SharerSet heap = SharerSet::of({3, 64});
  heap.erase(64);  // still on the heap, only rank 3 left
  EXPECT_FALSE(heap.is_inline());
  const SharerSet inl(std::uint64_t{1} << 3);
  EXPECT_EQ(heap, inl);
  EXPECT_EQ(inl, heap);
  SharerSet wide = SharerSet::of({3, 5000});
  wide.erase(5000);  // 79 words, one member
  EXPECT_EQ(wide, heap);
  EXPECT_EQ(wide, inl);
  wide.insert(4);
  EXPECT_NE(wide, inl);
  EXPECT_NE(inl, wide);
  heap.erase(3);
  EXPECT_EQ(heap, SharerSet());
  EXPECT_TRUE(heap.empty());
  EXPECT_EQ(heap.count(), 0);
  EXPECT_EQ(heap.begin(), heap.end());
  EXPECT_NE(SharerSet::of({64}), SharerSet::of({65}));
  EXPECT_NE(SharerSet::of({64}), SharerSet());
}

TEST(SwccSharerSet, CopiesAndMovesAreDeep) {
  SharerSet a = SharerSet::of({1, 70, 99});
  SharerSet b = a;
  b.insert(80);
  EXPECT_EQ(members(a), (std::vector<int>{1, 70, 99}));
  EXPECT_EQ(members(b), (std::vector<int>{1, 70, 80, 99}));
  SharerSet c;
  c = b;
  c.erase(1);
  EXPECT_TRUE(b.contains(1));
  SharerSet m = std::move(c);
  EXPECT_EQ(members(m), (std::vector<int>{70, 80, 99}));
  c = SharerSet(0b10);  // a moved-from set can be assigned again
  EXPECT_EQ(members(c), (std::vector<int>{1}));
  m = a;  // heap over heap
  EXPECT_EQ(m, a);
  m = SharerSet(0b100);  // inline over heap
  EXPECT_EQ(members(m), (std::vector<int>{2}));
  SharerSet& self = m;
  m = self;
  EXPECT_EQ(members(m), (std::vector<int>{2}));
}

TEST(SwccSharerSet, WordsRoundTrip) {
  std::uint64_t w[2] = {0b1000, std::uint64_t{1} << 35};  // ranks 3 and 99
  const SharerSet s = SharerSet::from_words(w, 2);
  EXPECT_EQ(members(s), (std::vector<int>{3, 99}));
  std::uint64_t out[2] = {~std::uint64_t{0}, ~std::uint64_t{0}};
  SharerSet::of({64, 70}).copy_to(out, 2);
  EXPECT_EQ(out[0], 0u);
  EXPECT_EQ(out[1], (std::uint64_t{1} << 0) | (std::uint64_t{1} << 6));
  SharerSet(0b110).copy_to(out, 2);  // inline into two words: the second is zeroed
  EXPECT_EQ(out[0], 0b110u);
  EXPECT_EQ(out[1], 0u);
  std::uint64_t one = 0;
  SharerSet low = SharerSet::of({2, 90});
  low.erase(90);
  low.copy_to(&one, 1);  // a heap set whose members fit one word
  EXPECT_EQ(one, 0b100u);
  EXPECT_THROW(SharerSet::of({64}).copy_to(&one, 1), std::out_of_range);
  EXPECT_EQ(SharerSet::from_words(&one, 1), SharerSet(0b100));
  EXPECT_TRUE(SharerSet::from_words(&one, 1).is_inline());
}

}  // namespace
}  // namespace swcc
