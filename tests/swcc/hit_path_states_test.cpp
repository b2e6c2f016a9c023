// The inline hit path of a real Dsm against the protocol tables, in every state a block reaches
// at np 2: rank 0 puts a block into a state (as its home, or as a cache of rank 1's block), then
// reads or writes it twice, first with the hit memo empty (the directory probe decides), then
// with the memo the first access left; each access is a hit (Stats::hits) exactly when the
// protocol's home_access / cache_access has kHit for the entry as it was.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <string>

#include "swcc/swcc.hpp"

namespace swcc {
namespace {

enum class Start {
  kHomeNoEntry,       // nobody touched the block
  kHomeSharedBy1,     // rank 1 read it
  kHomeModifiedBy1,   // rank 1 wrote it
  kHomeModifiedBy0,   // rank 1 read it, then rank 0 wrote it (rank 1 invalidated)
  kCacheNone,         // rank 1's block, never touched here
  kCacheShared,       // rank 0 read it
  kCacheModified,     // rank 0 wrote it
  kCacheInvalidated,  // rank 0 read it, then rank 1 wrote it
};
constexpr Start kSetups[] = {
    Start::kHomeNoEntry, Start::kHomeSharedBy1, Start::kHomeModifiedBy1, Start::kHomeModifiedBy0,
    Start::kCacheNone,   Start::kCacheShared,   Start::kCacheModified,   Start::kCacheInvalidated};

bool at_home(Start s) { return s <= Start::kHomeModifiedBy0; }

template <class D>
void start_in(D& d, Start s, global_ptr<std::int64_t> p) {
  const int me = d.rank();
  auto step = [&](int who, bool write) {
    if (me == who) {
      if (write)
        d.write(p, std::int64_t{me + 10});
      else
        (void)d.read(p);
    }
    d.barrier();
  };
  switch (s) {
    case Start::kHomeNoEntry:
    case Start::kCacheNone:
      break;
    case Start::kHomeSharedBy1:
      step(1, false);
      break;
    case Start::kHomeModifiedBy1:
      step(1, true);
      break;
    case Start::kHomeModifiedBy0:
      step(1, false);
      step(0, true);
      break;
    case Start::kCacheShared:
      step(0, false);
      break;
    case Start::kCacheModified:
      step(0, true);
      break;
    case Start::kCacheInvalidated:
      step(0, false);
      step(1, true);
      break;
  }
  d.barrier();
}

// What the protocol says of rank 0's access to p's block now.
template <class D>
bool protocol_hit(D& d, global_ptr<std::int64_t> p, Access a) {
  Directory& dir = d.engine().dir();
  const Entry* e = dir.row(p.rank).find(p.offset / D::kBlockBytes);
  if (p.rank == d.rank()) {
    const bool entry = e != nullptr && !dir.row(p.rank).empty();
    const HomeEntry he = entry ? HomeEntry{e->state, dir.sharers(*e), e->owner} : HomeEntry{};
    return home_access(d.rank(), entry, he, a) == LocalAction::kHit;
  }
  return cache_access(e ? e->state : State::kInvalid, a) == LocalAction::kHit;
}

TEST(SwccHitPathStates, EveryStateHitsExactlyWhereTheProtocolAllowsWithAndWithoutTheMemo) {
  Config c;
  c.segment_bytes = 1 << 20;
  c.watchdog_s = 20;
  int cases = 0, hits_seen = 0;
  with_dsm(MPI_COMM_WORLD, c, [&](auto& d) {
    ASSERT_EQ(d.size(), 2);
    for (Start s : kSetups)
      for (Access a : {Access::kRead, Access::kWrite}) {
        auto arr = d.template alloc<std::int64_t>(8);
        const auto p = arr.on(at_home(s) ? 0 : 1) + 2;
        start_in(d, s, p);
        if (d.rank() == 0) {
          const std::string what =
              std::to_string(int(s)) + (a == Access::kRead ? " read" : " write");
          d.engine().forget_hits();
          const bool expected = protocol_hit(d, p, a);
          for (int memo = 0; memo < 2; ++memo) {
            const std::int64_t before = d.stats().hits;
            if (a == Access::kRead)
              (void)d.read(p + memo);
            else
              d.write(p + memo, std::int64_t{100 + memo});
            EXPECT_EQ(d.stats().hits - before, expected ? 1 : 0)
                << what << (memo ? " with the memo" : " probed");
            if (!expected) break;  // the miss changed the state: the second access is another cell
          }
          ++cases;
          hits_seen += expected;
        }
        d.barrier();
      }
  });
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (me == 0) {
    EXPECT_EQ(cases, 16);
    // The setups reach their states: reads hit at the home unless rank 1 holds the block
    // Modified, and in a Shared or Modified copy (5); writes hit where the home or the copy is
    // Modified here or the home has no entry (3).
    EXPECT_EQ(hits_seen, 8);
  }
}

}  // namespace
}  // namespace swcc
