// Directed MPI tests, one per protocol transition, asserting exact message counts (summed over
// ranks) and the values read back.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>

#include "swcc/swcc.hpp"
#include "tests/mpi_world.hpp"

namespace swcc {
namespace {

using comops::test::world_size;

// Messages sent by all ranks together since the last call (collective; the DSM barrier in
// between is MPI's own and sends no DSM message).
template <class D>
std::int64_t step(D& dsm, std::int64_t& last) {
  dsm.barrier();
  std::int64_t m = dsm.stats().messages;
  MPI_Allreduce(MPI_IN_PLACE, &m, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  std::int64_t d = m - last;
  last = m;
  return d;
}

template <class F>
void with_block(std::size_t block, F&& f, bool uncached = false) {
  Config c;
  c.block_bytes = block;
  c.uncached = uncached;
  c.segment_bytes = 1 << 20;
  c.watchdog_s = 20;  // a hang bound on an idle machine; the engine stretches it with the load
  with_dsm(MPI_COMM_WORLD, c, f);
}

TEST(SwccDirected, HomeFastPathSendsNothingAndCreatesNoEntry) {
  with_block(64, [](auto& d) {
    auto a = d.template alloc<std::int64_t>(16);
    std::int64_t last = 0;
    const int me = d.rank();
    d.write(a.on(me) + 3, std::int64_t{me + 7});
    EXPECT_EQ(d.read(a.on(me) + 3), me + 7);
    EXPECT_EQ(step(d, last), 0);
    EXPECT_TRUE(d.engine().dir().row(me).empty());
    EXPECT_EQ(d.stats().hits, 2);
    EXPECT_EQ(d.stats().misses, 0);
  });
}

TEST(SwccDirected, CleanReadMissIsOneRequestAndOneReplyForEveryBlockSize) {
  for (std::size_t b : kBlockSizes) {
    with_block(b, [](auto& d) {
      auto a = d.template alloc<std::int64_t>(8);
      std::int64_t last = 0;
      if (d.rank() == 0) d.write(a.on(0) + 1, std::int64_t{42});
      EXPECT_EQ(step(d, last), 0);
      if (d.rank() == 1) {
        EXPECT_EQ(d.read(a.on(0) + 1), 42);
      }
      EXPECT_EQ(step(d, last), 2);
      if (d.rank() == 1) {
        EXPECT_EQ(d.read(a.on(0) + 1), 42);  // now a hit
        EXPECT_EQ(d.stats().misses, 1);
        EXPECT_EQ(d.stats().hits, 1);
      }
      EXPECT_EQ(step(d, last), 0);
    });
  }
}

TEST(SwccDirected, UpgradeOfTheOnlySharerIsARequestAndAReply) {
  with_block(64, [](auto& d) {
    auto a = d.template alloc<std::int64_t>(8);
    std::int64_t last = 0;
    if (d.rank() == 1) (void)d.read(a.on(0));
    EXPECT_EQ(step(d, last), 2);
    if (d.rank() == 1) d.write(a.on(0), std::int64_t{5});
    EXPECT_EQ(step(d, last), 2);
    if (d.rank() == 1) {
      d.write(a.on(0) + 1, std::int64_t{6});  // Modified: hit
      EXPECT_EQ(d.read(a.on(0)), 5);
    }
    EXPECT_EQ(step(d, last), 0);
    // The home reads its own block back: a flush of the owner (messages to self not counted).
    if (d.rank() == 0) {
      EXPECT_EQ(d.read(a.on(0) + 1), 6);
    }
    EXPECT_EQ(step(d, last), 2);
  });
}

// SwccDirectedThreeRanks needs a third rank: its tests run at np 3 and 4 only (NEEDS_3 in
// tests/swcc/CMakeLists.txt filters them out at np 2).
TEST(SwccDirectedThreeRanks, WriteToSharedBlockInvalidatesOtherSharersBeforeTheReply) {
  ASSERT_GE(world_size(), 3) << "needs 3 ranks; NEEDS_3 in tests/swcc/CMakeLists.txt";
  with_block(64, [](auto& d) {
    auto a = d.template alloc<std::int64_t>(8);
    std::int64_t last = 0;
    if (d.rank() == 1 || d.rank() == 2) {
      EXPECT_EQ(d.read(a.on(0) + 2), 0);
    }
    EXPECT_EQ(step(d, last), 4);
    if (d.rank() == 2) d.write(a.on(0) + 2, std::int64_t{77});
    // WriteReq, Inval to 1, InvalAck, WriteReply.
    EXPECT_EQ(step(d, last), 4);
    if (d.rank() == 1) {
      EXPECT_EQ(d.stats().invalidations, 1);
    }
    // A read of a remotely modified block: ReadReq, Flush, FlushData, ReadReply.
    if (d.rank() == 1) {
      EXPECT_EQ(d.read(a.on(0) + 2), 77);
    }
    EXPECT_EQ(step(d, last), 4);
    // Both read again: hits.
    if (d.rank() == 1 || d.rank() == 2) {
      EXPECT_EQ(d.read(a.on(0) + 2), 77);
    }
    if (d.rank() == 0) {
      EXPECT_EQ(d.read(a.on(0) + 2), 77);
    }
    EXPECT_EQ(step(d, last), 0);
    // Write miss on a remotely modified block: WriteReq, FlushInval, FlushData, WriteReply.
    if (d.rank() == 0) d.write(a.on(0) + 2, std::int64_t{1});  // home: Inval 1, Inval 2, acks
    EXPECT_EQ(step(d, last), 4);
    if (d.rank() == 1) d.write(a.on(0) + 2, std::int64_t{2});
    EXPECT_EQ(step(d, last), 2);
    if (d.rank() == 2) d.write(a.on(0) + 2, std::int64_t{3});
    EXPECT_EQ(step(d, last), 4);
    EXPECT_EQ(d.read(a.on(0) + 2), 3);
  });
}

TEST(SwccDirectedThreeRanks, StoreLeavesTheHomeOwningTheBlock) {
  ASSERT_GE(world_size(), 3) << "needs 3 ranks; NEEDS_3 in tests/swcc/CMakeLists.txt";
  with_block(64, [](auto& d) {
    auto a = d.template alloc<std::int64_t>(8);
    std::int64_t last = 0;
    if (d.rank() == 1) d.write(a.on(0), std::int64_t{10});
    EXPECT_EQ(step(d, last), 2);
    const std::int64_t v = 11;
    if (d.rank() == 2) d.store(a.on(0) + 1, &v, 1);
    // StoreReq, FlushInval to 1, FlushData, StoreAck.
    EXPECT_EQ(step(d, last), 4);
    if (d.rank() == 0) {
      EXPECT_EQ(d.read(a.on(0)), 10);
      EXPECT_EQ(d.read(a.on(0) + 1), 11);
      d.write(a.on(0) + 2, std::int64_t{12});
      EXPECT_EQ(d.stats().misses, 0);
    }
    EXPECT_EQ(step(d, last), 0);
    // A store to an untouched home block keeps the fast path: no entry is created.
    if (d.rank() == 1) d.store(a.on(2) + 4, &v, 1);
    EXPECT_EQ(step(d, last), 2);
    if (d.rank() == 2) {
      EXPECT_TRUE(d.engine().dir().row(2).empty());
      EXPECT_EQ(d.read(a.on(2) + 4), 11);
    }
  });
}

TEST(SwccDirected, SplitPhaseBulkGetAndPutGoBlockByBlock) {
  with_block(64, [](auto& d) {
    auto a = d.template alloc<std::int64_t>(64);
    std::int64_t last = 0;
    std::int64_t src[24], dst[24] = {};
    for (int i = 0; i < 24; ++i) src[i] = 100 + i;
    if (d.rank() == 1) {
      d.put(a.on(0) + 4, src, 24);  // 192 bytes from offset 32: blocks 0..3 -> 4 write misses
      d.sync();
    }
    EXPECT_EQ(step(d, last), 8);
    if (d.rank() == 1) {
      d.get(dst, a.on(0) + 4, 24);  // all Modified here: hits
      d.sync();
      for (int i = 0; i < 24; ++i) EXPECT_EQ(dst[i], 100 + i);
    }
    EXPECT_EQ(step(d, last), 0);
    if (d.rank() == 0) {
      d.read_bulk(dst, a.on(0) + 4, 24);
      for (int i = 0; i < 24; ++i) EXPECT_EQ(dst[i], 100 + i);
    }
    EXPECT_EQ(step(d, last), 8);  // four flushes of rank 1's blocks
  });
}

TEST(SwccDirected, SeveralGetsOnOneBlockShareOneRequest) {
  with_block(256, [](auto& d) {
    auto a = d.template alloc<std::int64_t>(32);
    std::int64_t last = 0;
    std::int64_t x[4];
    if (d.rank() == 1) {
      for (int i = 0; i < 4; ++i) d.get(&x[i], a.on(0) + i, 1);
      d.sync();
      EXPECT_EQ(d.stats().misses, 4);
    }
    EXPECT_EQ(step(d, last), 2);
  });
}

TEST(SwccDirected, UncachedModeGoesToTheHomeEveryTime) {
  with_block(
      64,
      [](auto& d) {
        auto a = d.template alloc<std::int64_t>(8);
        std::int64_t last = 0;
        if (d.rank() == 1) {
          d.write(a.on(0), std::int64_t{3});
          EXPECT_EQ(d.read(a.on(0)), 3);
          EXPECT_EQ(d.read(a.on(0)), 3);
        }
        EXPECT_EQ(step(d, last), 6);
        if (d.rank() == 0) {
          EXPECT_EQ(d.read(a.on(0)), 3);
        }
        EXPECT_EQ(step(d, last), 0);
      },
      true);
}

// The hit memo (the last block an inline read or write hit) must never outlive a change of the
// block's entry: each case below first makes the memo hold the block, then changes the entry
// from another rank, then accesses the block again.
TEST(SwccDirected, HitMemoIsForgottenWhenACachedCopyIsInvalidated) {
  with_block(64, [](auto& d) {
    auto a = d.template alloc<std::int64_t>(8);
    std::int64_t last = 0;
    if (d.rank() == 0) d.write(a.on(0) + 2, std::int64_t{5});
    step(d, last);
    if (d.rank() == 1) {
      EXPECT_EQ(d.read(a.on(0) + 2), 5);  // miss: Shared here
      EXPECT_EQ(d.read(a.on(0) + 2), 5);  // hit through the memo
      EXPECT_EQ(d.read(a.on(0) + 3), 0);  // same block: hit through the memo
    }
    step(d, last);
    if (d.rank() == 0) d.write(a.on(0) + 2, std::int64_t{6});  // invalidates rank 1's copy
    step(d, last);
    if (d.rank() == 1) {
      EXPECT_EQ(d.read(a.on(0) + 2), 6);  // the memo was forgotten: a miss, the new value
      EXPECT_EQ(d.stats().misses, 2);
      EXPECT_EQ(d.stats().hits, 2);
    }
    step(d, last);
  });
}

TEST(SwccDirected, HomeFastPathMemoIsForgottenWhenAnotherRankTakesTheBlock) {
  with_block(64, [](auto& d) {
    auto a = d.template alloc<std::int64_t>(8);
    std::int64_t last = 0;
    if (d.rank() == 0) {
      d.write(a.on(0), std::int64_t{1});  // fast path: memo holds the block, writable
      d.write(a.on(0) + 1, std::int64_t{2});
    }
    step(d, last);
    if (d.rank() == 1) d.write(a.on(0) + 1, std::int64_t{20});  // rank 1 takes it Modified
    step(d, last);
    if (d.rank() == 0) {
      const std::int64_t misses = d.stats().misses;
      EXPECT_EQ(d.read(a.on(0) + 1), 20);  // home memory is stale: must miss and flush
      EXPECT_EQ(d.stats().misses, misses + 1);
      d.write(a.on(0), std::int64_t{3});
    }
    step(d, last);
    if (d.rank() == 1) {
      EXPECT_EQ(d.read(a.on(0)), 3);
      EXPECT_EQ(d.read(a.on(0) + 1), 20);
    }
  });
}

TEST(SwccDirected, WriteMemoIsForgottenWhenTheOwnerIsFlushed) {
  with_block(8, [](auto& d) {
    auto a = d.template alloc<std::int64_t>(4);
    std::int64_t last = 0;
    if (d.rank() == 1) {
      d.write(a.on(0) + 1, std::int64_t{7});  // miss: Modified here
      d.write(a.on(0) + 1, std::int64_t{8});  // hit through the write memo
    }
    step(d, last);
    if (d.rank() == 0) {
      EXPECT_EQ(d.read(a.on(0) + 1), 8);  // flushes rank 1: it keeps Shared
    }
    step(d, last);
    if (d.rank() == 1) {
      const std::int64_t misses = d.stats().misses;
      d.write(a.on(0) + 1, std::int64_t{9});  // Shared now: the memo must not let this hit
      EXPECT_EQ(d.stats().misses, misses + 1);
    }
    step(d, last);
    if (d.rank() == 0) {
      EXPECT_EQ(d.read(a.on(0) + 1), 9);
    }
  });
}

TEST(SwccDirected, LockProtectedIncrementsLoseNothing) {
  with_block(64, [](auto& d) {
    auto a = d.template alloc<std::int64_t>(8);
    const int n = 50;
    for (int i = 0; i < n; ++i) {
      d.lock(3);
      d.write(a.on(1), d.read(a.on(1)) + 1);
      d.unlock(3);
    }
    d.barrier();
    EXPECT_EQ(d.read(a.on(1)), std::int64_t{n} * d.size());
  });
}

}  // namespace
}  // namespace swcc
