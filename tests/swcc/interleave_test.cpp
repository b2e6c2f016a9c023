// Directed MPI tests of SCI-VM's interleaved memory and prefetch in the swcc DSM: the homes of
// an interleaved array's blocks, exact data through the mapping, and the exact messages of a
// read miss with prefetch (what is asked for, what is not: cached, in flight, past the end, sc).
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
void with_config(std::size_t block, std::size_t prefetch, F&& f, bool uncached = false) {
  Config c;
  c.block_bytes = block;
  c.prefetch = prefetch;
  c.uncached = uncached;
  c.segment_bytes = 1 << 20;
  c.watchdog_s = 20;
  with_dsm(MPI_COMM_WORLD, c, f);
}

std::int32_t value(std::size_t i) { return static_cast<std::int32_t>(i * 7 + 3); }

// The mapping's division-free k / P (k < 2^32) against plain division, for P = 1..70 and block
// numbers around the edges (small, near 2^32, past it); no MPI needed.
TEST(SwccInterleave, BlockMappingMatchesDivisionForEveryRankCount) {
  std::vector<std::uint64_t> ks;
  for (std::uint64_t k = 0; k < 5000; ++k) ks.push_back(k);
  for (std::uint64_t base :
       {std::uint64_t{1} << 31, std::uint64_t{1} << 32, std::uint64_t{1} << 40})
    for (std::uint64_t k = base - 3000; k < base + 3000; ++k) ks.push_back(k);
  for (std::uint64_t k = 1; k < (std::uint64_t{1} << 32); k = k * 3 + 1) ks.push_back(k);
  for (int P = 1; P <= 70; ++P) {
    const InterleavedArray<std::int32_t, 64> a(4096, std::size_t{1} << 50, P);
    std::size_t wrong = 0;
    for (std::uint64_t k : ks) {
      const global_ptr<std::int32_t> p = a.block(k);
      wrong += p.rank != static_cast<int>(k % P) || p.offset != 4096 + k / P * 64;
    }
    EXPECT_EQ(wrong, 0u) << "P = " << P;
  }
}

// Every block size: block k of the array lives at rank k mod P, as block k / P of its part; the
// data each home writes into its own memory is what every rank reads through the mapping, and
// a reader without prefetch sends exactly one request per block homed elsewhere (2 messages).
TEST(SwccInterleave, BlockKIsHomedAtRankKModPWithExactData) {
  for (std::size_t b : kBlockSizes) {
    with_config(b, 0, [b](auto& d) {
      using D = std::remove_reference_t<decltype(d)>;
      const int P = d.size(), me = d.rank();
      const std::size_t per = b / sizeof(std::int32_t);
      const std::size_t blocks = 3 * static_cast<std::size_t>(P) + 1;
      const std::size_t n = (blocks - 1) * per + per / 2 + 1;  // a partly filled last block
      auto a = d.template alloc_interleaved<std::int32_t>(n);
      ASSERT_EQ(a.blocks(), blocks);
      // Each rank's part is ceil(blocks / P) blocks; the next allocation follows it (the
      // allocator aligns to the block, at least 64 bytes).
      const std::size_t part = (blocks + P - 1) / P * D::kBlockBytes;
      EXPECT_EQ((InterleavedArray<std::int32_t, D::kBlockBytes>::part_bytes(n, P)), part);
      auto next = d.template alloc<char>(1);
      const std::size_t align = std::max<std::size_t>(D::kBlockBytes, 64);
      EXPECT_EQ(next.offset, (a.offset() + part + align - 1) / align * align);
      std::size_t misplaced = 0;  // counted, not asserted in the loop: collectives follow
      for (std::size_t i = 0; i < n; ++i) {
        const std::size_t k = i / per;
        const global_ptr<std::int32_t> p = a[i];
        misplaced += p.rank != static_cast<int>(k % P) ||
                     p.offset != a.offset() + k / P * b + (i % per) * sizeof(std::int32_t);
        if (p.rank == me) *d.local(p) = value(i);  // each home fills its own blocks
      }
      EXPECT_EQ(misplaced, 0u) << "block size " << b;
      std::int64_t last = 0;
      EXPECT_EQ(step(d, last), 0);
      for (int reader = 0; reader < P; ++reader) {
        if (me == reader) {
          std::size_t wrong = 0;
          for (std::size_t i = 0; i < n; ++i) wrong += d.read(a, i) != value(i);
          EXPECT_EQ(wrong, 0u) << "block size " << b << " reader " << reader;
        }
        std::size_t remote = 0;
        for (std::size_t k = 0; k < blocks; ++k) remote += static_cast<int>(k % P) != reader;
        EXPECT_EQ(step(d, last), 2 * static_cast<std::int64_t>(remote)) << "reader " << reader;
      }
      EXPECT_EQ(d.stats().prefetches, 0);
    });
  }
}

// A miss to block 1 with depth d asks for blocks 1..1+d that are homed elsewhere: one request
// and one reply each, the demand first. At np 2 with d = 4 that is blocks 1, 3, 5 (3 requests,
// 3 replies); at np 3 with d = 2 blocks 1 and 2 (block 3 is rank 0's own: no message). Reads of
// the prefetched blocks afterwards are hits and send nothing; for 64- and 4096-byte blocks.
TEST(SwccInterleave, MissWithPrefetchAsksForTheNextBlocksOnce) {
  const int P = world_size();
  ASSERT_TRUE(P == 2 || P == 3) << "registered at np 2 and 3";
  const std::size_t depth = P == 2 ? 4 : 2;
  const std::int64_t requests = P == 2 ? 3 : 2;
  for (std::size_t b : {std::size_t{64}, std::size_t{4096}}) {
    with_config(b, depth, [&](auto& d) {
      const std::size_t per = b / sizeof(std::int32_t);
      const std::size_t n = 4 * static_cast<std::size_t>(P) * per;  // 4P blocks
      auto a = d.template alloc_interleaved<std::int32_t>(n);
      for (std::size_t i = 0; i < n; ++i)
        if (a[i].rank == d.rank()) *d.local(a[i]) = value(i);
      std::int64_t last = 0;
      EXPECT_EQ(step(d, last), 0);
      if (d.rank() == 0) {
        EXPECT_EQ(d.read(a, per + 5), value(per + 5));  // block 1, homed at rank 1
        EXPECT_EQ(d.stats().misses, 1);
        EXPECT_EQ(d.stats().prefetches, requests - 1);
      }
      EXPECT_EQ(step(d, last), 2 * requests);
      if (d.rank() == 0) {
        const Stats before = d.stats();
        std::size_t wrong = 0;
        for (std::size_t k = 1; k <= 1 + depth; ++k)  // every block the miss covered
          for (std::size_t i = k * per; i < (k + 1) * per; ++i) wrong += d.read(a, i) != value(i);
        EXPECT_EQ(wrong, 0u);
        EXPECT_EQ(d.stats().misses, before.misses);
        EXPECT_EQ(d.stats().hits - before.hits, static_cast<std::int64_t>((1 + depth) * per));
      }
      EXPECT_EQ(step(d, last), 0);
    });
  }
}

// Nothing is asked for twice or in vain: not a block cached here, not one homed here, not one
// in flight, not one past the array's end, nothing at all in sc mode.
TEST(SwccInterleave, PrefetchSendsNothingForCachedInFlightOwnOrPastTheEnd) {
  const int P = world_size();
  with_config(64, 2, [&](auto& d) {
    constexpr std::size_t per = 16;                                    // int32 in 64 bytes
    auto a = d.template alloc_interleaved<std::int32_t>(4 * P * per);  // blocks 0..4P-1
    const std::size_t lastb = a.blocks() - 1;                          // homed at P - 1, not rank 0
    std::int64_t last = 0;
    if (d.rank() == 0) {  // the last block: nothing past the end is asked for
      EXPECT_EQ(d.read(a, lastb * per), 0);
      EXPECT_EQ(d.stats().prefetches, 0);
    }
    EXPECT_EQ(step(d, last), 2);
    if (d.rank() == 0) {
      EXPECT_FALSE(d.prefetch(a.block(lastb)));  // cached here
      EXPECT_FALSE(d.prefetch(a.block(0)));      // homed here, readable
      EXPECT_TRUE(d.prefetch(a.block(1)));
      EXPECT_FALSE(d.prefetch(a.block(1)));  // in flight (no poll in between)
      EXPECT_EQ(d.stats().prefetches, 1);
    }
    EXPECT_EQ(step(d, last), 2);
    if (d.rank() == 0) {
      EXPECT_TRUE(d.prefetch(a.block(2 * P + 1)));  // in flight when the miss below lists it
      // A miss on block 2P - 1 (homed at P - 1; d = 2): 2P and 2P + 1 follow. Block 2P is homed
      // here and readable; block 2P + 1 is in flight: only the demand goes out.
      EXPECT_EQ(d.read(a, (2 * P - 1) * per), 0);
      EXPECT_EQ(d.stats().prefetches, 2);
      EXPECT_EQ(d.stats().misses, 2);
    }
    EXPECT_EQ(step(d, last), 4);
  });
  with_config(
      64, 2,
      [&](auto& d) {
        auto a = d.template alloc_interleaved<std::int32_t>(4 * P * 16);
        std::int64_t last = 0;
        if (d.rank() == 0) {
          EXPECT_EQ(d.read(a, 16), 0);  // sc: one request and its reply, no prefetch
          EXPECT_FALSE(d.prefetch(a.block(1)));
          EXPECT_EQ(d.stats().prefetches, 0);
        }
        EXPECT_EQ(step(d, last), 2);
      },
      true);
}

// A prefetched copy is an ordinary Shared copy: the home's write invalidates it (Inval and
// InvalAck; the home's request to itself is not counted) and the next read misses and sees
// the new value.
TEST(SwccInterleave, PrefetchedCopyIsInvalidatedByAWrite) {
  const int P = world_size();
  with_config(64, 0, [&](auto& d) {  // depth 0: the read below asks for its block alone
    constexpr std::size_t per = 16;
    auto a = d.template alloc_interleaved<std::int32_t>(4 * P * per);
    std::int64_t last = 0;
    if (d.rank() == 0) {
      EXPECT_TRUE(d.prefetch(a.block(1)));
    }
    EXPECT_EQ(step(d, last), 2);
    if (d.rank() == 1) d.write(a, per + 3, std::int32_t{99});  // the home writes block 1
    EXPECT_EQ(step(d, last), 2);
    if (d.rank() == 0) {
      EXPECT_EQ(d.stats().invalidations, 1);
      EXPECT_EQ(d.read(a, per + 3), 99);
    }
    EXPECT_EQ(step(d, last), 2);
  });
}

TEST(SwccInterleave, PrefetchDeeperThanTheLimitIsAConfigError) {
  Config c;
  c.prefetch = kMaxPrefetch + 1;
  c.segment_bytes = 1 << 20;
  EXPECT_THROW(with_dsm(MPI_COMM_WORLD, c, [](auto&) {}), ConfigError);
}

}  // namespace
}  // namespace swcc
