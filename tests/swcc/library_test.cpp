// The DSM as a library of its own: this program links swcc::dsm and the MPI gtest main of the
// tests (GoogleTest, MPI, the MPICH finalize workaround) and nothing of comops, includes only the
// front door, and does a write, a read and a barrier across the ranks with exact data and counts.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <type_traits>

#include "swcc/swcc.hpp"

namespace {

TEST(SwccLibrary, WriteReadBarrierAcrossRanks) {
  int np = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  ASSERT_GE(np, 2);
  swcc::Config cfg;
  cfg.segment_bytes = 1 << 20;
  EXPECT_EQ(cfg.block_bytes, swcc::kDefaultBlockBytes);
  swcc::with_dsm(MPI_COMM_WORLD, cfg, [&](auto& dsm) {
    EXPECT_EQ(std::remove_reference_t<decltype(dsm)>::kBlockBytes, 64u);
    auto a = dsm.template alloc<std::int64_t>(4);  // 4 words on every rank
    const int me = dsm.rank();
    const int next = (me + 1) % np;
    dsm.write(a.on(next) + 1, std::int64_t{100 + me});  // a remote write miss
    dsm.barrier();
    const int prev = (me + np - 1) % np;
    EXPECT_EQ(dsm.read(a.on(me) + 1), 100 + prev);  // home memory Modified at prev: a miss
    dsm.barrier();
    EXPECT_EQ(dsm.read(a.on(me) + 1), 100 + prev);  // now Shared, home memory: a hit
    const swcc::Stats s = dsm.stats();
    EXPECT_EQ(s.misses, 2);  // the write, and the first read
    EXPECT_EQ(s.hits, 1);
    dsm.barrier();
  });
}

TEST(SwccLibrary, EveryTableSizeRuns) {
  for (std::size_t b : swcc::kBlockSizes) {
    swcc::Config cfg;
    cfg.block_bytes = b;
    cfg.segment_bytes = 1 << 20;
    const std::size_t compiled = swcc::with_dsm(MPI_COMM_WORLD, cfg, [](auto& dsm) {
      auto a = dsm.template alloc<std::int64_t>(1);
      if (dsm.rank() == 0) dsm.write(a.on(1), std::int64_t{7});
      dsm.barrier();
      EXPECT_EQ(dsm.read(a.on(1)), 7);
      dsm.barrier();
      return std::remove_reference_t<decltype(dsm)>::kBlockBytes;
    });
    EXPECT_EQ(compiled, b);
  }
}

}  // namespace
