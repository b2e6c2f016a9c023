// Directed MPI tests of the swcc views (Dsm<B>::read_view, write_view; swcc/swcc.hpp "views"):
// exact data through views of home and remote blocks, cached and in sc mode; write views seen
// by every rank after a barrier, over copies the write invalidates; the clipping to one block;
// the exact hits, misses and prefetches a view costs; a straddling element refused; a view
// found stale after this rank served another rank's write.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <string>

#include "swcc/swcc.hpp"
#include "tests/mpi_world.hpp"

namespace swcc {
namespace {

using comops::test::world_size;

constexpr std::size_t kBlock = 64;
constexpr std::size_t kPer = kBlock / sizeof(std::int32_t);  // 16 elements a block

template <class F>
void with_config(bool uncached, std::size_t prefetch, F&& f) {
  Config c;
  c.block_bytes = kBlock;
  c.prefetch = prefetch;
  c.uncached = uncached;
  c.segment_bytes = 1 << 20;
  c.watchdog_s = 20;
  with_dsm(MPI_COMM_WORLD, c, f);
}

std::int32_t value(std::size_t i, int round) {
  return static_cast<std::int32_t>(i * 7 + 3 + static_cast<std::size_t>(round) * 1000);
}

// Three blocks a rank and a partial last block.
std::size_t count() { return kPer * 3 * static_cast<std::size_t>(world_size()) + 5; }

template <class D, class A>
void fill_own(D& d, const A& a) {
  for (std::size_t i = 0; i < a.count(); ++i)
    if (a[i].rank == d.rank()) *d.local(a[i]) = value(i, 0);
}

// Every rank views every block of an interleaved array: each view spans its block's elements
// (first(), size(), the short last block) with the exact values; cached, a home block is a hit
// and a remote one a miss each (nothing is written meanwhile, so no view is retried).
TEST(SwccView, ReadViewsGiveExactDataOfHomeAndRemoteBlocks) {
  for (bool sc : {false, true}) {
    SCOPED_TRACE(sc ? "sc" : "cached");
    with_config(sc, 0, [&](auto& d) {
      auto a = d.template alloc_interleaved<std::int32_t>(count());
      fill_own(d, a);
      d.barrier();
      const Stats before = d.stats();
      std::int64_t home = 0, remote = 0;
      for (std::size_t k = 0; k < a.blocks(); ++k) {
        const ReadView<std::int32_t> v = d.read_view(a, k * kPer + 3);  // any element of k
        ASSERT_EQ(v.first(), k * kPer);
        ASSERT_EQ(v.size(), std::min(kPer, a.count() - k * kPer));
        ASSERT_TRUE(v.valid());
        for (std::size_t j = 0; j < v.size(); ++j) ASSERT_EQ(v[j], value(k * kPer + j, 0));
        (a.home_of_block(k) == d.rank() ? home : remote) += 1;
      }
      const Stats after = d.stats();
      EXPECT_EQ(after.hits - before.hits, home);
      if (!sc) {
        EXPECT_EQ(after.misses - before.misses, remote);
      }
      EXPECT_TRUE(d.read_view(a, a.count()).empty());  // past the end
      d.barrier();
    });
  }
}

// Everybody reads everything (Shared copies everywhere), then block k is written through a
// write view by rank (k + shift) mod P (shift 1: a remote block whose copies the write
// invalidates; shift 0: the home's own block), then every rank reads every element back
// through read views and through read(): exactly the new values. Cached and sc.
TEST(SwccView, WriteViewsAreSeenByEveryRankAfterABarrier) {
  for (bool sc : {false, true}) {
    SCOPED_TRACE(sc ? "sc" : "cached");
    with_config(sc, 0, [&](auto& d) {
      auto a = d.template alloc_interleaved<std::int32_t>(count());
      fill_own(d, a);
      d.barrier();
      const int P = d.size();
      for (int round = 1; round <= 2; ++round) {
        const int shift = round == 1 ? 1 : 0;
        for (std::size_t i = 0; i < a.count(); ++i) ASSERT_EQ(d.read(a, i), value(i, round - 1));
        d.barrier();
        for (std::size_t k = 0; k < a.blocks(); ++k) {
          if ((a.home_of_block(k) + shift) % P != d.rank()) continue;
          WriteView<std::int32_t> v = d.write_view(a, k * kPer);
          for (std::size_t j = 0; j < v.size(); ++j) {
            ASSERT_EQ(v[j], value(k * kPer + j, round - 1));  // a write view reads too
            v[j] = value(k * kPer + j, round);
          }
        }  // sc: each view's copy is put back as it ends
        d.barrier();
        for (std::size_t k = 0; k < a.blocks(); ++k) {
          const ReadView<std::int32_t> v = d.read_view(a, k * kPer);
          for (std::size_t j = 0; j < v.size(); ++j) ASSERT_EQ(v[j], value(k * kPer + j, round));
        }
        for (std::size_t i = 0; i < a.count(); ++i) ASSERT_EQ(d.read(a, i), value(i, round));
        d.barrier();
      }
    });
  }
}

// read_view(p, n) spans min(n, the elements to the end of p's block); n = 0 is empty; a range
// over several blocks is covered by looping on size().
TEST(SwccView, AViewOfAPointerIsClippedToItsBlock) {
  with_config(false, 0, [&](auto& d) {
    auto s = d.template alloc<std::int32_t>(4 * kPer);
    const int peer = (d.rank() + 1) % d.size();
    for (std::size_t i = 0; i < 4 * kPer; ++i)
      *d.local(s.on(d.rank()) + static_cast<std::ptrdiff_t>(i)) = value(i, d.rank());
    d.barrier();
    const global_ptr<std::int32_t> p = s.on(peer) + 5;
    EXPECT_EQ(d.read_view(p, 100).size(), kPer - 5);
    EXPECT_EQ(d.read_view(p, 3).size(), 3u);
    EXPECT_TRUE(d.read_view(p, 0).empty());
    std::size_t next = 5, views = 0;
    while (next < 4 * kPer) {
      const ReadView<std::int32_t> v =
          d.read_view(s.on(peer) + static_cast<std::ptrdiff_t>(next), 4 * kPer - next);
      ASSERT_FALSE(v.empty());
      for (std::int32_t x : v) EXPECT_EQ(x, value(next++, peer));
      ++views;
    }
    EXPECT_EQ(views, 4u);  // the rest of the first block, then three whole ones
    d.barrier();
  });
}

// A read view's miss on an interleaved array prefetches like read(array, i): from rank 0,
// block 1 (rank 1's) with d = 2 asks for block 2 (rank 2's at P = 3, rank 0's own at P = 2,
// which is not asked for) and block 3 (rank 1's at P = 2, rank 0's at P = 3): one prefetch
// either way; after sync() the prefetched block's view is a hit.
TEST(SwccView, AReadViewMissPrefetchesTheNextBlocks) {
  with_config(false, 2, [&](auto& d) {
    auto a = d.template alloc_interleaved<std::int32_t>(count());
    fill_own(d, a);
    d.barrier();
    if (d.rank() == 0) {
      const Stats s0 = d.stats();
      EXPECT_EQ(d.read_view(a, 1 * kPer)[0], value(kPer, 0));
      const Stats s1 = d.stats();
      EXPECT_EQ(s1.misses - s0.misses, 1);
      EXPECT_EQ(s1.prefetches - s0.prefetches, 1);
      d.sync();
      const std::size_t prefetched = d.size() == 2 ? 3 : 2;
      const Stats s2 = d.stats();
      const ReadView<std::int32_t> v = d.read_view(a, prefetched * kPer);
      EXPECT_EQ(v[0], value(prefetched * kPer, 0));
      EXPECT_EQ(d.stats().misses - s2.misses, 0);
      EXPECT_EQ(d.stats().hits - s2.hits, 1);
    }
    d.barrier();
  });
}

// An element that would cross a block: 24-byte elements in 64-byte blocks, or an int32 view at
// an offset not aligned to 4: one clear swcc::Error naming the size, the address and B.
TEST(SwccView, AStraddlingElementIsRefused) {
  struct Three {
    std::int64_t x, y, z;
  };
  with_config(false, 0, [&](auto& d) {
    try {
      (void)d.read_view(global_ptr<Three>{0, 0}, 1);
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()),
                "swcc: a view of 24-byte elements at rank 0's offset 0 would cross a 64-byte "
                "block");
    }
    EXPECT_THROW((void)d.write_view(global_ptr<std::int32_t>{0, 2}, 1), Error);
    d.barrier();
  });
}

// Rank 0 views a block of rank 1's, then serves rank 1's write of it (the invalidation comes
// while rank 0 waits in the barrier): the view is no longer valid, span() throws a clear
// swcc::Error, and a view taken again shows the new value. A hit in between keeps it valid.
TEST(SwccView, AViewIsStaleAfterThisRankServedAnotherRanksWrite) {
  with_config(false, 0, [&](auto& d) {
    auto a = d.template alloc_interleaved<std::int32_t>(count());
    fill_own(d, a);
    d.barrier();
    ReadView<std::int32_t> v;
    if (d.rank() == 0) {
      v = d.read_view(a, kPer);   // block 1, rank 1's
      (void)d.read(a, kPer + 1);  // a hit: no message served
      EXPECT_TRUE(v.valid());
      EXPECT_EQ(v.span()[0], value(kPer, 0));
    }
    d.barrier();
    if (d.rank() == 1) d.write(a, kPer, std::int32_t{-7});  // waits for rank 0's ack
    d.barrier();
    if (d.rank() == 0) {
      EXPECT_FALSE(v.valid());
      try {
        (void)v.span();
        ADD_FAILURE() << "no error";
      } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("used after this rank served protocol messages"),
                  std::string::npos)
            << e.what();
      }
      v = d.read_view(a, kPer);
      EXPECT_EQ(v.span()[0], -7);
    }
    d.barrier();
  });
}

}  // namespace
}  // namespace swcc
