// More ranks than a 64-bit sharer set holds (registered at np = 66): every rank reads one block
// homed at rank 0, then writes invalidate every copy. Exact message counts, summed over ranks
// (messages to self are not counted), the home's exact sharer set, and the values read back.
// The counts are written for n ranks, so the test also holds at small n.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>

#include "swcc/swcc.hpp"
#include "tests/swcc/message_step.hpp"

namespace swcc {
namespace {

using test::step;

// Ranks 1..n-1: every rank but the home.
SharerSet all_but_home(int n) {
  SharerSet s;
  for (int r = 1; r < n; ++r) s.insert(r);
  return s;
}

TEST(SwccManyRanks, EveryRankSharesOneBlockThenWritesInvalidateThemAll) {
  Config c;
  c.block_bytes = 64;
  c.segment_bytes = 1 << 20;
  c.watchdog_s = 100;  // a hang bound; stretched with the load (66 ranks on a few cores)
  with_dsm(MPI_COMM_WORLD, c, [](auto& d) {
    const int n = d.size(), me = d.rank();
    const std::int64_t others = n - 1;
    auto a = d.template alloc<std::int64_t>(8);
    const global_ptr<std::int64_t> x = a.on(0) + 1;
    const std::uint64_t blk = x.offset / 64;
    const Directory& dir = d.engine().dir();
    std::int64_t last = 0;

    if (me == 0) d.write(x, std::int64_t{42});  // the home's fast path: no message, no entry
    EXPECT_EQ(step(d, last), 0);

    // Every rank reads: ReadReq + ReadReply per rank but the home (whose read is a hit).
    EXPECT_EQ(d.read(x), 42);
    EXPECT_EQ(step(d, last), 2 * others);
    if (me == 0) {
      const Entry* e = d.engine().dir().row(0).find(blk);
      ASSERT_NE(e, nullptr);
      EXPECT_EQ(e->state, State::kShared);
      const SharerSet s = dir.sharers(*e);
      EXPECT_EQ(s, all_but_home(n)) << s;
      EXPECT_EQ(s.count(), n - 1);
      EXPECT_EQ(dir.sharer_words(), n <= 64 ? 0u : SharerSet::words_for(n));
      if (n > 64) {
        EXPECT_FALSE(s.is_inline());
        EXPECT_NE(dir.dump(0, blk).find(",64,"), std::string::npos) << dir.dump(0, blk);
      }
      EXPECT_EQ(d.stats().misses, 0);
    } else {
      EXPECT_EQ(d.stats().misses, 1);
    }

    // The home writes: its own WriteReq goes to itself (not counted), then one Inval and one
    // InvalAck per sharer; the write completes only after every ack.
    if (me == 0) d.write(x, std::int64_t{43});
    EXPECT_EQ(step(d, last), 2 * others);
    EXPECT_EQ(d.stats().invalidations, me == 0 ? 0 : 1);
    if (me == 0) {
      const Entry* e = d.engine().dir().row(0).find(blk);
      ASSERT_NE(e, nullptr);
      EXPECT_EQ(e->state, State::kModified);
      EXPECT_EQ(e->owner, 0);
      EXPECT_TRUE(dir.sharers(*e).empty()) << dir.sharers(*e);
    }

    // Everyone reads the new value: one ReadReq + ReadReply per rank but the home again.
    EXPECT_EQ(d.read(x), 43);
    EXPECT_EQ(step(d, last), 2 * others);

    // The highest rank (64 or more at np 66) upgrades: WriteReq, an Inval and an InvalAck per
    // other sharer (ranks 1..n-2), WriteReply.
    if (me == n - 1) d.write(x, std::int64_t{44});
    EXPECT_EQ(step(d, last), 2 + 2 * (others - 1));
    EXPECT_EQ(d.stats().invalidations, me == 0 ? 0 : me == n - 1 ? 1 : 2);

    // The home reads it back: Flush to the owner and its FlushData (the home's own ReadReq and
    // ReadReply are to itself); the owner keeps a Shared copy.
    if (me == 0) {
      EXPECT_EQ(d.read(x), 44);
      const Entry* e = d.engine().dir().row(0).find(blk);
      ASSERT_NE(e, nullptr);
      EXPECT_EQ(dir.sharers(*e), SharerSet::of({n - 1}));
    }
    EXPECT_EQ(step(d, last), 2);
    EXPECT_EQ(d.read(x), 44);  // the home and the old owner hit; the others miss
    EXPECT_EQ(step(d, last), 2 * (others - 1));
    EXPECT_TRUE(d.engine().quiescent()) << d.engine().dump();
  });
}

}  // namespace
}  // namespace swcc
