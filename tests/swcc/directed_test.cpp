// Directed MPI tests, one per protocol transition, asserting exact message counts (summed over
// ranks) and the values read back.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "swcc/swcc.hpp"
#include "tests/mpi_world.hpp"
#include "tests/swcc/message_step.hpp"

namespace swcc {
namespace {

using comops::test::world_size;

using test::step;

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

// Dsm::local_read: a local pointer to the home's own elements, valid until the next barrier. A
// block another rank holds Modified is flushed back first (two messages, one miss); Shared copies
// elsewhere and blocks nobody else touched cost nothing.
TEST(SwccDirected, LocalReadFlushesBackOnlyTheBlocksAnotherRankHoldsModified) {
  for (const bool uncached : {false, true}) {
    with_block(
        64,
        [uncached](auto& d) {
          constexpr std::size_t kCount = 32;  // 4 blocks of 64 bytes
          auto a = d.template alloc<std::int64_t>(kCount);
          std::int64_t last = 0;
          if (d.rank() == 0) {
            std::int64_t* mine = d.local(a.on(0));
            for (std::size_t i = 0; i < kCount; ++i) mine[i] = static_cast<std::int64_t>(i) + 100;
            // Untouched by others: the home fast path, no message, no miss.
            const std::int64_t* p = d.local_read(a.on(0) + 3, kCount - 3);
            EXPECT_EQ(p, d.local(a.on(0)) + 3);
            EXPECT_EQ(p[0], 103);
          }
          EXPECT_EQ(step(d, last), 0);
          if (d.rank() == 1) {
            d.write(a.on(0) + 9, std::int64_t{-9});    // block 1: Modified at rank 1
            EXPECT_EQ(d.read(a.on(0) + 17), 117);      // block 2: Shared at rank 1
            d.write(a.on(0) + 25, std::int64_t{-25});  // block 3: Modified at rank 1
          }
          // Cached: WriteReq and WriteReply, ReadReq and ReadReply, WriteReq and WriteReply;
          // sc: a request and a reply each.
          EXPECT_EQ(step(d, last), 6);
          if (d.rank() == 0) {
            const std::int64_t misses = d.stats().misses;
            // Blocks 1 and 2 only: block 3 (rank 1's Modified copy) stays out of the range.
            const std::int64_t* p = d.local_read(a.on(0), 24);
            EXPECT_EQ(d.stats().misses - misses, uncached ? 0 : 1);
            for (std::size_t i = 0; i < 24; ++i)
              EXPECT_EQ(p[i], i == 9 ? -9 : static_cast<std::int64_t>(i) + 100) << i;
            // Again: everything is readable here now, nothing is asked for.
            EXPECT_EQ(d.local_read(a.on(0), 24), p);
            EXPECT_EQ(d.stats().misses - misses, uncached ? 0 : 1);
          }
          // Cached: Flush to rank 1 and FlushData back (messages to self are not counted).
          EXPECT_EQ(step(d, last), uncached ? 0 : 2);
          if (d.rank() == 1 && !uncached) {
            EXPECT_EQ(d.read(a.on(0) + 25), -25);  // still Modified here: a hit
            EXPECT_EQ(d.read(a.on(0) + 9), -9);    // Shared after the flush: a hit
          }
          EXPECT_EQ(step(d, last), 0);
        },
        uncached);
  }
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

TEST(SwccDirected, SplitPhaseBulkPutIsOneRangeRequestAndReplyAndFlushesGoBlockByBlock) {
  with_block(64, [](auto& d) {
    auto a = d.template alloc<std::int64_t>(64);
    std::int64_t last = 0;
    std::int64_t src[24], dst[24] = {};
    for (int i = 0; i < 24; ++i) src[i] = 100 + i;
    if (d.rank() == 1) {
      d.put(a.on(0) + 4, src, 24);  // 192 bytes from offset 32: blocks 0..3 -> 4 write misses
      d.sync();
      EXPECT_EQ(d.stats().misses, 4);
    }
    // One range WriteReq for blocks 0..3 and one range WriteReply carrying their 256 bytes.
    EXPECT_EQ(step(d, last), 2);
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
    EXPECT_EQ(step(d, last), 8);  // four flushes of rank 1's blocks: Flush is never a range
  });
}

// Range messages (swcc/README.md): the requests of a bulk get or put for a run of blocks at one
// home leave as one message, the home answers the blocks it can serve at once with one reply
// carrying their contiguous data, and the invalidations of a run at one sharer are one Inval and
// one InvalAck. Exact counts and bytes (a header is 32 bytes).
TEST(SwccDirected, BulkGetOfARunIsOneRangeRequestAndOneRangeReply) {
  with_block(4096, [](auto& d) {
    constexpr std::size_t kN = 8 * 4096 / sizeof(std::int64_t);  // 8 blocks
    auto a = d.template alloc<std::int64_t>(kN);
    std::int64_t last = 0;
    if (d.rank() == 0)
      for (std::size_t i = 0; i < kN; ++i) d.write(a.on(0) + i, static_cast<std::int64_t>(3 * i));
    EXPECT_EQ(step(d, last), 0);  // the home's fast path
    std::vector<std::int64_t> v(kN, -1);
    const Stats s0 = d.stats();
    if (d.rank() == 1) {
      d.read_bulk(v.data(), a.on(0), kN);
      std::size_t wrong = 0;
      for (std::size_t i = 0; i < kN; ++i) wrong += v[i] != static_cast<std::int64_t>(3 * i);
      EXPECT_EQ(wrong, 0u);
    }
    EXPECT_EQ(step(d, last), 2);
    if (d.rank() == 1) {
      EXPECT_EQ(d.stats().misses - s0.misses, 8);
      EXPECT_EQ(d.stats().bytes - s0.bytes, 32);  // one header: the range ReadReq
    }
    if (d.rank() == 0) {  // one ReadReply of 8 blocks: header + 32 KiB, its own MPI message
      EXPECT_EQ(d.stats().messages - s0.messages, 1);
      EXPECT_EQ(d.stats().bytes - s0.bytes, 32 + 8 * 4096);
    }
    // Every block is Shared at rank 1 now: a second get hits, sends nothing.
    if (d.rank() == 1) d.read_bulk(v.data(), a.on(0), kN);
    EXPECT_EQ(step(d, last), 0);
    // The home's bulk put invalidates the run at rank 1 with one Inval and one InvalAck (its own
    // WriteReq and WriteReply are messages to self, which the counts leave out).
    std::vector<std::int64_t> w(kN);
    for (std::size_t i = 0; i < kN; ++i) w[i] = static_cast<std::int64_t>(i) - 5;
    if (d.rank() == 0) d.write_bulk(a.on(0), w.data(), kN);
    EXPECT_EQ(step(d, last), 2);
    if (d.rank() == 1) {
      EXPECT_EQ(d.stats().invalidations, 8);
      d.read_bulk(v.data(), a.on(0), kN);
      EXPECT_EQ(v, w);
    }
    EXPECT_EQ(step(d, last), 2);
  });
}

// A split-phase put copies its source when issued; write_bulk reads it in place and returns only
// once written. A put to blocks Shared at rank 1 waits for their invalidations, so its data is
// written after the call returns: overwriting the source before sync must not change what
// lands, and the messages are the same as write_bulk's (one range Inval, one range InvalAck).
TEST(SwccDirected, PutCopiesItsSourceWhenIssued) {
  with_block(4096, [](auto& d) {
    constexpr std::size_t kN = 4 * 4096 / sizeof(std::int64_t);  // 4 blocks
    auto a = d.template alloc<std::int64_t>(kN);
    std::int64_t last = 0;
    std::vector<std::int64_t> v(kN, 0);
    if (d.rank() == 1) d.read_bulk(v.data(), a.on(0), kN);  // Shared at rank 1
    EXPECT_EQ(step(d, last), 2);
    std::vector<std::int64_t> w(kN), issued(kN);
    for (std::size_t i = 0; i < kN; ++i) w[i] = issued[i] = 1000 + static_cast<std::int64_t>(i);
    if (d.rank() == 0) {
      d.put(a.on(0), w.data(), kN);
      std::fill(w.begin(), w.end(), -7);  // before the grants: the put must not see this
      d.sync();
    }
    EXPECT_EQ(step(d, last), 2);
    if (d.rank() == 1) {
      EXPECT_EQ(d.stats().invalidations, 4);
      d.read_bulk(v.data(), a.on(0), kN);
      EXPECT_EQ(v, issued);
    }
    EXPECT_EQ(step(d, last), 2);
  });
}

// A run of blocks at one home, two of them Modified at a third rank: the home serves the blocks
// it can at once in one range reply per contiguous run (blocks 0..2 and 5..7) and falls back to
// the per-block protocol for the others (a Flush each, the FlushData, a ReadReply each).
TEST(SwccDirectedThreeRanks, BulkGetFallsBackBlockByBlockForBlocksModifiedElsewhere) {
  ASSERT_GE(world_size(), 3) << "needs 3 ranks; NEEDS_3 in tests/swcc/CMakeLists.txt";
  with_block(4096, [](auto& d) {
    constexpr std::size_t kPer = 4096 / sizeof(std::int64_t);
    constexpr std::size_t kN = 8 * kPer;
    auto a = d.template alloc<std::int64_t>(kN);
    std::int64_t last = 0;
    if (d.rank() == 0)
      for (std::size_t i = 0; i < kN; ++i) d.write(a.on(0) + i, static_cast<std::int64_t>(i));
    EXPECT_EQ(step(d, last), 0);  // the home's fast path, before rank 2 takes two blocks
    if (d.rank() == 2) {
      d.write(a.on(0) + 3 * kPer + 1, std::int64_t{-31});
      d.write(a.on(0) + 4 * kPer + 2, std::int64_t{-42});
    }
    EXPECT_EQ(step(d, last), 4);  // two write misses: WriteReq, WriteReply each
    std::vector<std::int64_t> v(kN, 0);
    if (d.rank() == 1) {
      d.read_bulk(v.data(), a.on(0), kN);
      for (std::size_t i = 0; i < kN; ++i) {
        const std::int64_t want = i == 3 * kPer + 1   ? -31
                                  : i == 4 * kPer + 2 ? -42
                                                      : static_cast<std::int64_t>(i);
        EXPECT_EQ(v[i], want) << "element " << i;
      }
    }
    // ReadReq range (1); ReadReply range for 0..2 (1); Flush to 2 for blocks 3 and 4 (2);
    // FlushData (2); ReadReply for 3 and 4 (2); ReadReply range for 5..7 (1).
    EXPECT_EQ(step(d, last), 9);
    if (d.rank() == 0) {
      EXPECT_EQ(d.read(a.on(0) + 3 * kPer + 1), -31);  // the flushes left Shared copies: hits
      EXPECT_EQ(d.stats().misses, 0);
    }
    EXPECT_EQ(step(d, last), 0);
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

// Uncached (sc) bulk transfers go in messages of kScBulkBytes (Split-C's sc bulk), not block by
// block: an 800 KiB get is 100 requests and 100 replies of 8 KiB, a put or a store 100 writes of
// 8 KiB and 100 acknowledgements; a range that does not fill its last piece takes one piece more.
// The home's own bulk accesses send nothing. Exact data, exact messages and bytes.
TEST(SwccDirected, UncachedBulkTransfersGoInPiecesOf8KiB) {
  with_block(
      64,
      [](auto& d) {
        static_assert(kScBulkBytes == 8192);
        constexpr std::size_t kCount = 800 * 1024 / sizeof(std::int64_t);  // 100 pieces
        constexpr std::int64_t kHeader = 32;
        auto a = d.template alloc<std::int64_t>(kCount);
        std::vector<std::int64_t> v(kCount);
        std::int64_t last = 0, last_bytes = 0;
        auto bytes_step = [&] {
          std::int64_t b = d.stats().bytes;
          MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
          const std::int64_t delta = b - last_bytes;
          last_bytes = b;
          return delta;
        };
        const int me = d.rank();
        auto fill = [&](std::int64_t mul) {
          for (std::size_t i = 0; i < kCount; ++i) v[i] = static_cast<std::int64_t>(i) * mul + 1;
        };
        auto holds = [&](const std::int64_t* p, std::size_t n, std::int64_t mul) {
          for (std::size_t i = 0; i < n; ++i)
            if (p[i] != static_cast<std::int64_t>(i) * mul + 1) return false;
          return true;
        };
        // The home's own put: local copies, no message.
        if (me == 0) {
          fill(3);
          d.put(a.on(0), v.data(), kCount);
          d.sync();
          EXPECT_TRUE(holds(d.local(a.on(0)), kCount, 3));
        }
        EXPECT_EQ(step(d, last), 0);
        EXPECT_EQ(bytes_step(), 0);
        if (me == 1) {
          std::fill(v.begin(), v.end(), -1);
          d.get(v.data(), a.on(0), kCount);
          d.sync();
          EXPECT_TRUE(holds(v.data(), kCount, 3));
          EXPECT_EQ(d.stats().misses, 100);
        }
        EXPECT_EQ(step(d, last), 200);
        EXPECT_EQ(bytes_step(), 100 * kHeader + 100 * (kHeader + 8192));
        if (me == 1) {
          fill(5);
          d.put(a.on(0), v.data(), kCount);
          d.sync();
        }
        EXPECT_EQ(step(d, last), 200);
        EXPECT_EQ(bytes_step(), 100 * (kHeader + 8192) + 100 * kHeader);
        if (me == 0) {
          EXPECT_TRUE(holds(d.local(a.on(0)), kCount, 5));
        }
        // One element more than a piece: two writes (8192 and 8 bytes), two acknowledgements.
        if (me == 1) {
          fill(7);
          d.store(a.on(0), v.data(), 1025);
          d.sync();
        }
        EXPECT_EQ(step(d, last), 4);
        EXPECT_EQ(bytes_step(), (kHeader + 8192) + (kHeader + 8) + 2 * kHeader);
        if (me == 0) {
          EXPECT_TRUE(holds(d.local(a.on(0)), 1025, 7));
          EXPECT_EQ(d.local(a.on(0))[1025], 1025 * 5 + 1);  // past the store: the put's value
        }
        step(d, last);
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
