// EM3D's MPI-process kernels under mpiexec (np 2, 3, 4): the DSM program (blocking,
// split-phase and view reads) on swcc at block sizes 8, 64 and 4096 and uncached (sc), and the
// hand-written MPI program, each checked exactly against the serial reference after two runs back
// to back with different seeds; the MPI program's ghost lists are exact.
#include <gtest/gtest.h>
#include <mpi.h>

#include <set>
#include <tuple>
#include <utility>

#include "comops/apps/em3d/graph.hpp"
#include "comops/apps/em3d/mpi_kernel.hpp"
#include "comops/apps/em3d/swcc_kernel.hpp"
#include "tests/mpi_world.hpp"

namespace comops::em3d {
namespace {

using comops::test::world_rank;
using comops::test::world_size;

// One rank's inputs and outputs of a run.
struct RankRun {
  RankRun(const Params& p, std::uint64_t seed)
      : seed(seed),
        e0(initial_values(p, seed, Kind::kE, world_rank())),
        h0(initial_values(p, seed, Kind::kH, world_rank())),
        e(p.nodes, 0),
        h(p.nodes, 0) {}
  std::uint64_t seed;
  std::vector<std::uint64_t> e0, h0, e, h;
  // Wrong values of this rank's nodes against the reference of (p, np, kGraphSeed, seed).
  std::size_t wrong(const Params& p) const {
    return count_wrong(reference(p, world_size(), kGraphSeed, seed), p.nodes, world_rank(), e, h);
  }
};

// Two runs back to back with different seeds into different outputs, the first checked after the
// second ran; then one iteration too many, which the check sees (every value changes).
template <class K>
void check_runs(K& kernel, const Params& p) {
  RankRun first(p, 17), second(p, 18);
  kernel.run(first.e0.data(), first.h0.data(), first.e.data(), first.h.data());
  kernel.run(second.e0.data(), second.h0.data(), second.e.data(), second.h.data());
  EXPECT_EQ(first.wrong(p), 0u) << "nodes " << p.nodes << " remote " << p.remote_pct;
  EXPECT_EQ(second.wrong(p), 0u) << "nodes " << p.nodes << " remote " << p.remote_pct;
  kernel.iterate(1);
  kernel.values(second.e.data(), second.h.data());
  EXPECT_EQ(second.wrong(p), 2 * p.nodes) << "nodes " << p.nodes;
}

const Params kCases[] = {
    {50, 4, 0, 3},   // no remote edges
    {50, 4, 10, 3},  // the 10 %
    {33, 5, 50, 2},  // half remote, nodes not a multiple of a block
    {8, 3, 100, 4},  // every edge remote
};

using SwccCase = std::tuple<std::size_t, bool, Reads>;  // block bytes, uncached, reads

class Em3dSwcc : public ::testing::TestWithParam<SwccCase> {};

TEST_P(Em3dSwcc, MatchesTheSerialReferenceExactly) {
  const auto [block, uncached, reads] = GetParam();
  for (const Params& p : kCases) {
    ::swcc::Config c;
    c.block_bytes = block;
    c.uncached = uncached;
    c.segment_bytes = swcc_segment_bytes(p);
    c.watchdog_s = 20;
    ::swcc::with_dsm(MPI_COMM_WORLD, c, [&](auto& dsm) {
      SwccKernel kernel(dsm, p, kGraphSeed, reads);
      check_runs(kernel, p);  // the second run starts from values other ranks cached
      dsm.barrier();
    });
  }
}

std::string case_name(const ::testing::TestParamInfo<SwccCase>& info) {
  const auto [block, uncached, reads] = info.param;
  return (uncached ? std::string("sc") : "swcc" + std::to_string(block)) +
         (reads == Reads::kBlocking     ? "_blocking"
          : reads == Reads::kSplitPhase ? "_split"
                                        : "_views");
}

INSTANTIATE_TEST_SUITE_P(
    Blocks, Em3dSwcc,
    ::testing::Combine(::testing::Values(std::size_t{8}, std::size_t{64}, std::size_t{4096}),
                       ::testing::Values(false),
                       ::testing::Values(Reads::kBlocking, Reads::kSplitPhase, Reads::kViews)),
    case_name);
INSTANTIATE_TEST_SUITE_P(
    Uncached, Em3dSwcc,
    ::testing::Combine(::testing::Values(std::size_t{64}), ::testing::Values(true),
                       ::testing::Values(Reads::kBlocking, Reads::kSplitPhase, Reads::kViews)),
    case_name);

TEST(Em3dSwccCounters, RemoteEdgesMissAndNoRemoteEdgesSendNothing) {
  ::swcc::Config c;
  c.block_bytes = 64;
  c.segment_bytes = swcc_segment_bytes({64, 4, 0, 1});
  ::swcc::with_dsm(MPI_COMM_WORLD, c, [&](auto& dsm) {
    const Params p{64, 4, 0, 2};
    SwccKernel local(dsm, p, kGraphSeed);
    RankRun r(p, 1);
    local.run(r.e0.data(), r.h0.data(), r.e.data(), r.h.data());
    std::int64_t m[2] = {dsm.stats().messages, dsm.stats().misses};
    MPI_Allreduce(MPI_IN_PLACE, m, 2, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    EXPECT_EQ(m[0], 0);  // every access is the home's own memory
    EXPECT_EQ(m[1], 0);
    // Its own values the kernel reads through local pointers (Dsm::local_read), not a DSM read
    // per edge: the DSM counts only the bulk accesses, one hit per 64-byte block of an array of
    // 64 values (8 blocks): the reset's two puts, one put per half-step, the two reads back.
    const std::int64_t blocks = 64 * 8 / 64;
    EXPECT_EQ(dsm.stats().hits, (2 + 2 * static_cast<std::int64_t>(p.iters) + 2) * blocks);
  });
  ::swcc::with_dsm(MPI_COMM_WORLD, c, [&](auto& dsm) {
    const Params p{64, 4, 10, 2};
    SwccKernel remote(dsm, p, kGraphSeed);
    RankRun r(p, 1);
    remote.run(r.e0.data(), r.h0.data(), r.e.data(), r.h.data());
    EXPECT_GT(dsm.stats().misses, 0);
  });
}

// The distinct (owner, block) pairs of `side`'s remote sources: blocks of `block` bytes of an
// array of 8-byte values that starts on a block boundary at every rank.
std::size_t remote_blocks(const Side& side, int me, std::size_t block) {
  std::set<std::pair<std::uint32_t, std::size_t>> blocks;
  for (const Edge& e : side.edges)
    if (e.owner != static_cast<std::uint32_t>(me))
      blocks.emplace(e.owner, e.index * sizeof(std::uint64_t) / block);
  return blocks.size();
}

// The blocks of rank `me`'s array that other ranks read as sources of their nodes of kind `k`
// (E nodes read the H array, H nodes the E array).
std::size_t blocks_read_by_others(const Params& p, Kind k, int me, std::size_t block) {
  std::set<std::size_t> blocks;
  for (int r = 0; r < world_size(); ++r)
    if (r != me)
      for (const Edge& e : make_part(p, world_size(), kGraphSeed, r).side(k).edges)
        if (e.owner == static_cast<std::uint32_t>(me))
          blocks.insert(e.index * sizeof(std::uint64_t) / block);
  return blocks.size();
}

// Reads::kViews: one read view per block of remote sources per half-step, each a miss (the
// owner wrote the block at the end of the half-step before, which took this rank's copy away),
// and besides them only the write misses of the bulk write that ends a half-step: one per block
// of this rank's array that other ranks read since it was last written (the E array is not yet
// read when the first half-step writes it).
TEST(Em3dSwccCounters, ViewsMissOncePerRemoteBlockAndHalfStep) {
  const Params p{200, 6, 30, 3};
  const int me = world_rank();
  const Part part = make_part(p, world_size(), kGraphSeed, me);
  for (const std::size_t block : {std::size_t{64}, std::size_t{4096}}) {
    ::swcc::Config c;
    c.block_bytes = block;
    c.segment_bytes = swcc_segment_bytes(p);
    ::swcc::with_dsm(MPI_COMM_WORLD, c, [&](auto& dsm) {
      SwccKernel kernel(dsm, p, kGraphSeed, Reads::kViews);
      RankRun r(p, 1);
      kernel.reset(r.e0.data(), r.h0.data());
      const std::int64_t before = dsm.stats().misses;
      kernel.iterate(p.iters);
      const std::size_t reads =
          p.iters * (remote_blocks(part.e, me, block) + remote_blocks(part.h, me, block));
      const std::size_t writes = p.iters * blocks_read_by_others(p, Kind::kE, me, block) +
                                 (p.iters - 1) * blocks_read_by_others(p, Kind::kH, me, block);
      EXPECT_EQ(dsm.stats().misses - before, static_cast<std::int64_t>(reads + writes))
          << "block " << block << ": " << reads << " view misses expected";
      kernel.values(r.e.data(), r.h.data());
      EXPECT_EQ(r.wrong(p), 0u) << "block " << block;
      dsm.barrier();
    });
  }
}

TEST(Em3dMpi, MatchesTheSerialReferenceExactly) {
  for (const Params& p : kCases) {
    MpiKernel kernel(MPI_COMM_WORLD, p, kGraphSeed);
    check_runs(kernel, p);
  }
}

TEST(Em3dMpi, GhostListsHoldEachRemoteSourceOnce) {
  const Params p{40, 6, 20, 1};
  const int np = world_size(), me = world_rank();
  const MpiKernel kernel(MPI_COMM_WORLD, p, 5);
  const Part part = make_part(p, np, 5, me);
  for (Kind k : {Kind::kE, Kind::kH}) {
    std::set<std::pair<std::uint32_t, std::uint32_t>> distinct;
    for (const Edge& e : part.side(k).edges)
      if (e.owner != static_cast<std::uint32_t>(me)) distinct.emplace(e.owner, e.index);
    EXPECT_EQ(kernel.ghost_count(k), distinct.size());
  }
  // Messages: to each peer that reads any of my values, once per half-step. Summed over ranks,
  // the sends equal the receives, which are the (rank, peer) pairs with a remote edge.
  std::int64_t counts[2] = {static_cast<std::int64_t>(kernel.messages_per_iteration()), 0};
  for (Kind k : {Kind::kE, Kind::kH}) {
    std::set<std::uint32_t> peers;
    for (const Edge& e : part.side(k).edges)
      if (e.owner != static_cast<std::uint32_t>(me)) peers.insert(e.owner);
    counts[1] += static_cast<std::int64_t>(peers.size());
  }
  MPI_Allreduce(MPI_IN_PLACE, counts, 2, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(counts[0], counts[1]);
}

}  // namespace
}  // namespace comops::em3d
