// The inline hit paths of swcc/detail/hit_path.hpp are a second copy of the access rules: their
// decisions on a directory entry, over every state, owner, sharer set and access, against the
// protocol's home_access and cache_access (swcc/detail/protocol.hpp); and the hit memo, which
// stands in for the probe on a run of accesses, covers exactly the bytes of the block it holds.
#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
#include <string>
#include <vector>

#include "swcc/detail/hit_path.hpp"

namespace swcc {
namespace {

constexpr State kStates[] = {State::kInvalid, State::kShared, State::kModified, State::kBusyRead,
                             State::kBusyWrite};
constexpr int kMe = 1, kOther = 2;

std::string cell(const char* side, State s, int owner, bool sharers, Access a) {
  return std::string(side) + " " + state_name(s) + " owner " + std::to_string(owner) +
         (sharers ? " with a sharer " : " no sharers ") + (a == Access::kRead ? "read" : "write");
}

// The home's own accesses. The protocol allows one local access the inline path leaves to the
// engine: a write to a Shared entry without sharers, which Engine::try_write takes silently (no
// request either); every other cell agrees, a hit exactly where the protocol has kHit.
TEST(SwccHitPathAgreement, HomeAccessesAgreeWithHomeAccess) {
  int silent_upgrades = 0, cells = 0;
  for (Access a : {Access::kRead, Access::kWrite}) {
    const bool inline_none =
        a == Access::kRead ? home_hit_read(nullptr, kMe) : home_hit_write(nullptr, kMe);
    EXPECT_TRUE(inline_none);
    EXPECT_EQ(home_access(kMe, false, HomeEntry{}, a), LocalAction::kHit);
    for (State s : kStates)
      for (int owner : {-1, kMe, kOther})
        for (bool sharers : {false, true}) {
          Entry en;
          en.state = s;
          en.owner = owner;
          en.sharers = sharers ? std::uint64_t{1} << kOther : 0;
          const HomeEntry he{s, SharerSet(en.sharers), owner};
          const bool protocol = home_access(kMe, true, he, a) == LocalAction::kHit;
          const bool inline_hit =
              a == Access::kRead ? home_hit_read(&en, kMe) : home_hit_write(&en, kMe);
          ++cells;
          if (a == Access::kWrite && s == State::kShared && !sharers) {
            EXPECT_TRUE(protocol) << cell("home", s, owner, sharers, a);
            EXPECT_FALSE(inline_hit) << cell("home", s, owner, sharers, a);
            ++silent_upgrades;
            continue;
          }
          EXPECT_EQ(inline_hit, protocol) << cell("home", s, owner, sharers, a);
        }
  }
  EXPECT_EQ(cells, 2 * 5 * 3 * 2);
  EXPECT_EQ(silent_upgrades, 3);  // one per owner value
}

TEST(SwccHitPathAgreement, CachedCopiesAgreeWithCacheAccess) {
  for (Access a : {Access::kRead, Access::kWrite}) {
    EXPECT_FALSE(a == Access::kRead ? cache_hit_read(nullptr) : cache_hit_write(nullptr));
    EXPECT_NE(cache_access(State::kInvalid, a), LocalAction::kHit);  // no entry: Invalid
    for (State s : {State::kInvalid, State::kShared, State::kModified}) {
      Entry en;
      en.state = s;
      const bool protocol = cache_access(s, a) == LocalAction::kHit;
      const bool inline_hit = a == Access::kRead ? cache_hit_read(&en) : cache_hit_write(&en);
      EXPECT_EQ(inline_hit, protocol) << cell("cache", s, -1, false, a);
    }
  }
}

// remember<true> (a write) fills the read memo too: that is right only if every writable entry is
// readable.
TEST(SwccHitPathAgreement, EveryWriteHitIsAlsoAReadHit) {
  for (State s : kStates)
    for (int owner : {-1, kMe, kOther}) {
      Entry en;
      en.state = s;
      en.owner = owner;
      if (home_hit_write(&en, kMe)) {
        EXPECT_TRUE(home_hit_read(&en, kMe)) << state_name(s) << " " << owner;
      }
      if (cache_hit_write(&en)) {
        EXPECT_TRUE(cache_hit_read(&en)) << state_name(s);
      }
    }
}

// A memo holding block k of home h covers an access exactly when it is of h and all its bytes lie
// in the block; an empty memo covers nothing, whatever int the caller passes as the home.
template <std::size_t B>
void expect_memo_exact() {
  std::uint8_t block[B];
  const std::uint64_t first = 5 * B;
  const Engine::HitMemo m{static_cast<std::uint32_t>(kOther), first, block};
  const Engine::HitMemo none{};
  std::vector<std::uint64_t> offs;
  for (std::uint64_t o = first - B; o < first + 2 * B; ++o) offs.push_back(o);
  for (std::uint64_t o : {std::uint64_t{0}, ~std::uint64_t{0}, first + (std::uint64_t{1} << 54),
                          first - (std::uint64_t{1} << 63)})
    offs.push_back(o);
  for (int home : {kOther, kMe, 0, -1, -2, INT_MAX, INT_MIN})
    for (std::size_t len : {std::size_t{1}, std::size_t{8}, B, B + 1})
      for (std::uint64_t off : offs) {
        const bool inside = home == kOther && off >= first && off - first + len <= B;
        EXPECT_EQ(memo_covers<B>(m, home, off, len), inside)
            << B << " " << home << " " << off << " " << len;
        EXPECT_FALSE(memo_covers<B>(none, home, off, len)) << home << " " << off;
      }
}

TEST(SwccHitPathAgreement, TheMemoCoversExactlyItsBlockAtEveryBlockSize) {
  expect_memo_exact<8>();
  expect_memo_exact<64>();
  expect_memo_exact<256>();
  expect_memo_exact<1024>();
  expect_memo_exact<4096>();
}

}  // namespace
}  // namespace swcc
