// The DSM's API refuses what would give wrong data or touch memory it must not: elements that
// cross a block are read and written whole (bulk, at every block size, under with_dsm), pointers
// outside the ranks and their segments throw AccessError and send nothing, local() and
// local_read() refuse another rank's memory, locks used wrongly throw LockError. Every error is
// asserted by type and exact text, and the data around it is checked intact.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <string>
#include <type_traits>

#include "swcc/swcc.hpp"
#include "tests/mpi_world.hpp"
#include "tests/swcc/thrown.hpp"

namespace swcc {
namespace {

using comops::test::world_size;

struct S16 {
  std::int64_t a, b;
  bool operator==(const S16&) const = default;
};
struct S24 {
  std::int64_t a, b, c;
  bool operator==(const S24&) const = default;
};

constexpr std::size_t kSegment = 1 << 20;

template <class F>
decltype(auto) with_block(std::size_t block, F&& f, bool uncached = false) {
  Config c;
  c.block_bytes = block;
  c.uncached = uncached;
  c.segment_bytes = kSegment;
  c.watchdog_s = 20;
  return with_dsm(MPI_COMM_WORLD, c, f);
}

// The first element of T that crosses a block of B bytes (0 when T is larger than B).
template <class T>
std::size_t first_crossing(std::size_t block) {
  std::size_t i = 0;
  while ((i * sizeof(T)) % block + sizeof(T) <= block) ++i;
  return i;
}

// The last rank writes element i of rank 0's part and reads it back; rank 0 then reads it with
// read() and local_read(), writes a new value that the last rank reads; the neighbours stay zero.
template <class T, class D>
void round_trip(D& d, std::size_t i, const T& first, const T& second) {
  auto a = d.template alloc<T>(i + 2);
  const int last = d.size() - 1;
  const auto p = a.on(0) + static_cast<std::ptrdiff_t>(i);
  if (d.rank() == last) {
    d.write(p, first);
    EXPECT_EQ(d.read(p), first);
  }
  d.barrier();
  if (d.rank() == 0) {
    EXPECT_EQ(d.read(p), first);
    EXPECT_EQ(d.local_read(p, 1)[0], first);
    EXPECT_EQ(d.read(p + 1), T{});
    if (i > 0) {
      EXPECT_EQ(d.read(p + -1), T{});
    }
    d.write(p, second);
  }
  d.barrier();
  EXPECT_EQ(d.read(p), second);
  EXPECT_EQ(d.read(p + 1), T{});
  d.barrier();
}

// A 24-byte element crosses a block at every size (element 2 at 64-byte blocks: bytes 48-71);
// the case: the home read {11,22,0}. Here every rank reads what was written.
TEST(SwccApiSafety, ElementsAcrossBlocksAreWholeAtEveryBlockSize) {
  for (std::size_t b : kBlockSizes) {
    with_block(b, [&](auto& d) {
      round_trip<S24>(d, first_crossing<S24>(b), {11, 22, 33}, {44, 55, 66});
    });
  }
  EXPECT_EQ(first_crossing<S24>(64), 2u);
  EXPECT_EQ(first_crossing<S24>(4096), 170u);
}

TEST(SwccApiSafety, ElementsAcrossBlocksAreWholeInUncachedMode) {
  with_block(
      64,
      [&](auto& d) {
        round_trip<S24>(d, 2, {11, 22, 33}, {44, 55, 66});
      },
      true);
}

// with_dsm compiles the program for every block size, 8 included: 16-byte elements are larger
// than that block, and still read and written whole; at 64 bytes they never cross.
TEST(SwccApiSafety, SixteenByteElementsRunUnderWithDsmAtEveryBlockSize) {
  for (std::size_t b : kBlockSizes) {
    const std::size_t compiled = with_block(b, [&](auto& d) {
      round_trip<S16>(d, 1, {7, 8}, {9, 10});
      return std::remove_reference_t<decltype(d)>::kBlockBytes;
    });
    EXPECT_EQ(compiled, b);
  }
}

TEST(SwccApiSafety, InterleavedArrayRefusesAnElementLargerThanTheBlock) {
  with_block(8, [](auto& d) {
    EXPECT_EQ(thrown<ConfigError>([&] { d.template alloc_interleaved<S16>(4); }),
              "swcc: an interleaved array of 16-byte elements needs blocks of at least that "
              "size (block size 8)");
  });
}

// 24-byte elements at 64-byte blocks: two to a block, the last 16 bytes padding; block k homed
// at rank k mod P, every element read back exact by every rank.
TEST(SwccApiSafety, InterleavedArrayPadsBlocksToWholeElements) {
  with_block(64, [](auto& d) {
    const std::size_t n = 11;
    auto a = d.template alloc_interleaved<S24>(n);
    EXPECT_EQ(a.kPerBlock, 2u);
    EXPECT_EQ(a.blocks(), 6u);
    for (std::size_t i = 0; i < n; ++i) {
      EXPECT_EQ(a[i].rank, static_cast<int>((i / 2) % d.size()));
      EXPECT_EQ(a[i].offset % 64, (i % 2) * 24);
    }
    if (d.rank() == 0)
      for (std::size_t i = 0; i < n; ++i) {
        const auto v = static_cast<std::int64_t>(i);
        d.write(a, i, S24{v, v + 100, v + 200});
      }
    d.barrier();
    for (std::size_t i = 0; i < n; ++i) {
      const auto v = static_cast<std::int64_t>(i);
      EXPECT_EQ(d.read(a, i), (S24{v, v + 100, v + 200}));
    }
    d.barrier();
  });
}

// Every access path refuses bytes beyond the other rank's segment (the read 64 MiB into
// a 1 MiB segment), a range that runs past its end, and ranks that do not exist; nothing is sent
// and the data already there is intact.
TEST(SwccApiSafety, AccessesOutsideTheSegmentsThrowAndSendNothing) {
  with_block(64, [](auto& d) {
    const int me = d.rank(), np = d.size(), other = (me + 1) % np;
    auto a = d.template alloc<std::int64_t>(8);
    d.write(a.on(other) + me % 8, std::int64_t{1000 + me});
    d.barrier();
    const Stats before = d.stats();
    const std::uint64_t far = 64 << 20;
    const auto out = toglobal<std::int64_t>(other, far);
    const std::string outside =
        fmt::format("of 8 bytes at ({}, {}) is outside rank {}'s segment of {} bytes", other, far,
                    other, kSegment);
    const std::string head = fmt::format("swcc rank {}: ", me);
    std::int64_t v = 0, buf[16] = {};
    EXPECT_EQ(thrown<AccessError>([&] { d.read(out); }), head + "read " + outside);
    // The caller's own segment: the home fast path, which reads its memory without a request.
    EXPECT_EQ(thrown<AccessError>([&] { d.read(toglobal<std::int64_t>(me, far)); }),
              head + fmt::format("read of 8 bytes at ({}, {}) is outside rank {}'s segment of {} "
                                 "bytes",
                                 me, far, me, kSegment));
    EXPECT_EQ(thrown<AccessError>([&] { d.write(out, v); }), head + "write " + outside);
    EXPECT_EQ(thrown<AccessError>([&] { d.prefetch(out); }), head + "prefetch " + outside);
    EXPECT_EQ(thrown<AccessError>([&] { d.get(buf, out, 1); }), head + "get " + outside);
    EXPECT_EQ(thrown<AccessError>([&] { d.put(out, buf, 1); }), head + "put " + outside);
    EXPECT_EQ(thrown<AccessError>([&] { d.store(out, buf, 1); }), head + "store " + outside);
    EXPECT_EQ(thrown<AccessError>([&] { d.read_bulk(buf, out, 1); }), head + "get " + outside);
    EXPECT_EQ(thrown<AccessError>([&] { d.write_bulk(out, buf, 1); }), head + "put " + outside);
    // Far beyond any segment: past 2^48 blocks an offset would once alias another home's block.
    const std::uint64_t huge = std::uint64_t{1} << 60;
    EXPECT_EQ(thrown<AccessError>([&] { d.write(toglobal<std::int64_t>(other, huge), v); }),
              head + fmt::format("write of 8 bytes at ({}, {}) is outside rank {}'s segment of "
                                 "{} bytes",
                                 other, huge, other, kSegment));
    // A range that starts inside the segment and runs past its end.
    const auto tail = toglobal<std::int64_t>(other, kSegment - 64);
    EXPECT_EQ(thrown<AccessError>([&] { d.get(buf, tail, 16); }),
              head + fmt::format("get of 128 bytes at ({}, {}) is outside rank {}'s segment of "
                                 "{} bytes",
                                 other, kSegment - 64, other, kSegment));
    for (int bad : {-1, np}) {
      EXPECT_EQ(thrown<AccessError>([&] { d.read(toglobal<std::int64_t>(bad, 0)); }),
                head + fmt::format("read of 8 bytes at ({}, 0): no rank {} (ranks 0..{})", bad, bad,
                                   np - 1));
      EXPECT_EQ(thrown<AccessError>([&] { d.put(toglobal<std::int64_t>(bad, 0), buf, 2); }),
                head + fmt::format("put of 16 bytes at ({}, 0): no rank {} (ranks 0..{})", bad, bad,
                                   np - 1));
    }
    const Stats after = d.stats();
    EXPECT_EQ(after.messages, before.messages);
    EXPECT_EQ(after.misses, before.misses);
    EXPECT_EQ(after.hits, before.hits);
    d.barrier();
    for (int r = 0; r < np; ++r) {
      const int writer = (r + np - 1) % np;
      for (int k = 0; k < 8; ++k)
        EXPECT_EQ(d.read(a.on(r) + k), k == writer % 8 ? 1000 + writer : 0) << r << " " << k;
    }
    d.barrier();
  });
}

TEST(SwccApiSafety, LocalRefusesAnotherRanksMemoryAndBytesOutsideTheSegment) {
  with_block(64, [](auto& d) {
    const int me = d.rank(), other = (me + 1) % d.size();
    auto a = d.template alloc<std::int64_t>(4);
    const std::string head = fmt::format("swcc rank {}: ", me);
    EXPECT_EQ(thrown<AccessError>([&] { d.local(a.on(other)); }),
              head + fmt::format("local of 8 bytes at ({}, {}): not this rank's memory (use "
                                 "read or get)",
                                 other, a.offset));
    EXPECT_EQ(thrown<AccessError>([&] { d.local_read(a.on(other), 4); }),
              head + fmt::format("local_read of 32 bytes at ({}, {}): not this rank's memory "
                                 "(use read or get)",
                                 other, a.offset));
    EXPECT_EQ(thrown<AccessError>([&] { d.local(toglobal<std::int64_t>(me, kSegment)); }),
              head + fmt::format("local of 8 bytes at ({}, {}) is outside rank {}'s segment of "
                                 "{} bytes",
                                 me, kSegment, me, kSegment));
    EXPECT_EQ(thrown<AccessError>([&] { d.local_read(a.on(me), kSegment); }),
              head + fmt::format("local_read of {} bytes at ({}, {}) is outside rank {}'s "
                                 "segment of {} bytes",
                                 8 * kSegment, me, a.offset, me, kSegment));
    *d.local(a.on(me) + 3) = 5;  // the caller's own memory still works
    EXPECT_EQ(d.local_read(a.on(me), 4)[3], 5);
    d.barrier();
  });
}

// hit_read and the engine's misses serve one block: a range across one is refused there (Dsm's
// read/write of an element route it to the bulk path instead).
TEST(SwccApiSafety, ASingleMissAcrossABlockIsRefused) {
  with_block(64, [](auto& d) {
    const int me = d.rank(), other = (me + 1) % d.size();
    auto a = d.template alloc<std::int64_t>(16);
    const std::uint64_t off = a.offset + 60;
    std::int64_t v = 0;
    EXPECT_FALSE(d.hit_read(other, off, &v, sizeof v));
    EXPECT_EQ(thrown<AccessError>([&] { d.engine().read_miss(other, off, &v, sizeof v); }),
              fmt::format("swcc rank {}: read of 8 bytes at ({}, {}) crosses a 64-byte block "
                          "(use get or put)",
                          me, other, off));
    EXPECT_EQ(d.stats().messages, 0);
    d.barrier();
  });
}

TEST(SwccApiSafety, LockMisuseThrowsLockError) {
  with_block(64, [](auto& d) {
    const std::string head = fmt::format("swcc rank {}: ", d.rank());
    EXPECT_EQ(thrown<LockError>([&] { d.lock(-1); }),
              head + "lock id -1 is negative (ids are >= 0)");
    EXPECT_EQ(thrown<LockError>([&] { d.unlock(-1); }),
              head + "unlock of lock -1, which this rank does not hold");
    EXPECT_EQ(thrown<LockError>([&] { d.unlock(5); }),
              head + "unlock of lock 5, which this rank does not hold");
    const int id = 3 + d.rank();  // a lock of each rank's own: no waiting on the others
    d.lock(id);
    EXPECT_EQ(thrown<LockError>([&] { d.lock(id); }),
              head + fmt::format("lock {} is already held by this rank (locks are not "
                                 "re-entrant)",
                                 id));
    d.unlock(id);
    EXPECT_EQ(thrown<LockError>([&] { d.unlock(id); }),
              head + fmt::format("unlock of lock {}, which this rank does not hold", id));
    d.lock(id);  // still usable
    d.unlock(id);
    d.barrier();
  });
}

// Rank 1's unlock of the lock rank 0 holds is refused and does not release it: rank 1's lock()
// after it is granted only once rank 0 wrote under the lock and unlocked, so it reads the value.
TEST(SwccApiSafety, UnlockByARankThatDoesNotHoldTheLockReleasesNothing) {
  with_block(64, [](auto& d) {
    auto a = d.template alloc<std::int64_t>(1);
    const int id = 7;
    if (d.rank() == 0) d.lock(id);
    d.barrier();
    if (d.rank() == 1) {
      EXPECT_EQ(thrown<LockError>([&] { d.unlock(id); }),
                "swcc rank 1: unlock of lock 7, which this rank does not hold");
    }
    d.barrier();
    if (d.rank() == 0) {
      d.write(a.on(1), std::int64_t{42});
      d.unlock(id);
    } else if (d.rank() == 1) {
      d.lock(id);
      EXPECT_EQ(d.read(a.on(1)), 42);
      d.unlock(id);
    }
    d.barrier();
    for (int i = 0; i < 10; ++i) {
      d.lock(id);
      d.write(a.on(1), d.read(a.on(1)) + 1);
      d.unlock(id);
    }
    d.barrier();
    EXPECT_EQ(d.read(a.on(1)), 42 + 10 * d.size());
    d.barrier();
  });
}

}  // namespace
}  // namespace swcc
