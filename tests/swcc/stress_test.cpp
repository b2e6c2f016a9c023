// Randomized stress test: every rank issues random reads, writes, gets, puts and stores of
// tagged values on a few hot blocks, and checks single-writer/multiple-reader, that no reader
// sees a value go backwards (nor the initial 0 once it has seen a write) or a value never written
// to that word, and that no write is lost.
// With --prefetch every read first prefetches the blocks of two random words (Dsm::prefetch), so
// prefetch requests race with the writes, stores and invalidations of the other ranks.
// With --faults the transport holds messages back and reorders them (seeded by --seed); the
// counters must then show NACKs and retries. A stuck request trips the watchdog, which aborts
// with a directory dump.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "swcc/swcc.hpp"

namespace swcc {
namespace {

bool g_faults = false;
bool g_prefetch = false;
std::uint64_t g_seed = 1;
std::size_t g_block = 64;
// Defaults: 20 x 1000 random operations per rank (plus the locked increments and the final
// reads of each round), about 2 s at np 4 on 2 cores.
int g_rounds = 20;
int g_ops = 1000;  // random operations per rank and round

constexpr int kHomes = 2;         // hot words live on ranks 0 and 1 (rank 0 only with np 1)
constexpr int kWordsPerHome = 8;  // 64 bytes per home: 1 block of 64, 8 blocks of 8
constexpr int kWords = kHomes * kWordsPerHome;

std::int64_t tag(int writer, int word, std::int64_t seq) {
  return (std::int64_t{writer + 1} << 56) | (std::int64_t{word} << 40) | seq;
}

template <class D>
struct Checker {
  D& d;
  SpreadArray<std::int64_t> a;
  int n;
  // last_seen[word][writer]: highest sequence number this rank saw from writer in word.
  std::vector<std::vector<std::int64_t>> last_seen;
  std::int64_t seq = 0;
  std::int64_t bad = 0;

  global_ptr<std::int64_t> word(int w) const {
    return a.on((w / kWordsPerHome) % n) + (w % kWordsPerHome);
  }
  void check(int w, std::int64_t v, const char* how) {
    if (v == 0) {  // the initial value: stale once this rank has seen any write to the word
      for (int r = 0; r < n; ++r)
        if (last_seen[w][r] > 0) {
          ++bad;
          ADD_FAILURE() << how << " word " << w << ": the initial value 0 after writer " << r
                        << " seq " << last_seen[w][r];
          return;
        }
      return;
    }
    const int writer = static_cast<int>((v >> 56) - 1);
    const int word_of = static_cast<int>((v >> 40) & 0xffff);
    const std::int64_t s = v & ((std::int64_t{1} << 40) - 1);
    if (writer < 0 || writer >= n || word_of != w || s <= 0) {
      ++bad;
      ADD_FAILURE() << how << " word " << w << ": never-written value " << std::hex << v;
      return;
    }
    if (s < last_seen[w][writer]) {
      ++bad;
      ADD_FAILURE() << how << " word " << w << ": value went backwards: writer " << writer
                    << " seq " << s << " after " << last_seen[w][writer];
    }
    last_seen[w][writer] = std::max(last_seen[w][writer], s);
  }
};

// At a quiescent point: at most one Modified copy, Shared copies exactly the home's sharers
// and holding the home's data, the home not busy.
template <class D>
void check_coherence(D& d, int block_count_per_home, int n) {
  const int me = d.rank();
  Engine& e = d.engine();
  EXPECT_TRUE(e.quiescent()) << e.dump();  // not ASSERT: collectives follow
  const std::size_t B = e.block_bytes();
  for (int h = 0; h < std::min(kHomes, n); ++h) {
    for (int b = 0; b < block_count_per_home; ++b) {
      // state and data of every rank's copy
      struct Copy {
        int state;
        std::uint64_t sharers;
        int owner;
        std::uint8_t data[64];
      } mine{};
      const Entry* en = e.dir().row(h).find(static_cast<std::uint64_t>(b));
      if (me == h) {
        mine.state = en ? static_cast<int>(en->state) : static_cast<int>(State::kModified);
        mine.sharers = en ? en->sharers : 0;
        mine.owner = en ? en->owner : h;
        std::memcpy(mine.data, e.segment() + b * B, std::min<std::size_t>(B, 64));
      } else {
        mine.state = en ? static_cast<int>(en->state) : static_cast<int>(State::kInvalid);
        if (en) std::memcpy(mine.data, en->data, std::min<std::size_t>(B, 64));
      }
      std::vector<Copy> all(n);
      MPI_Allgather(&mine, sizeof(Copy), MPI_BYTE, all.data(), sizeof(Copy), MPI_BYTE,
                    MPI_COMM_WORLD);
      const Copy& home = all[h];
      EXPECT_TRUE(home.state == static_cast<int>(State::kShared) ||
                  home.state == static_cast<int>(State::kModified))
          << "home " << h << " block " << b << " busy at a quiescent point";
      int writers = 0;
      std::uint64_t readers = 0;
      for (int r = 0; r < n; ++r) {
        if (r == h) continue;
        if (all[r].state == static_cast<int>(State::kModified)) ++writers;
        if (all[r].state == static_cast<int>(State::kShared)) readers |= std::uint64_t{1} << r;
      }
      EXPECT_LE(writers, 1) << "two writers of block " << h << ":" << b;
      if (home.state == static_cast<int>(State::kModified)) {
        EXPECT_EQ(readers, 0u) << "readers beside a writer of block " << h << ":" << b;
        if (home.owner != h) {
          EXPECT_EQ(all[home.owner].state, static_cast<int>(State::kModified));
        } else {
          EXPECT_EQ(writers, 0);
        }
      } else {
        EXPECT_EQ(writers, 0);
        EXPECT_EQ(readers, home.sharers) << "block " << h << ":" << b;
        for (int r = 0; r < n; ++r)  // every valid copy holds the last written value
          if (readers & (std::uint64_t{1} << r)) {
            EXPECT_EQ(std::memcmp(all[r].data, home.data, std::min<std::size_t>(B, 64)), 0)
                << "stale copy of " << h << ":" << b << " at rank " << r;
          }
      }
    }
  }
}

// One rank's writes of a round: its last write of each word (0: none), and the words with a put
// or store not yet completed by sync().
struct RoundWrites {
  std::vector<std::int64_t> last_write = std::vector<std::int64_t>(kWords, 0);
  std::set<int> pending;
};

// Split-C semantics: a put or store is ordered with this rank's later accesses to the same word
// only by sync(). Sync before touching a word with one pending.
template <class D>
void sync_if_pending(D& d, RoundWrites& rw, int w) {
  if (rw.pending.count(w)) {
    d.sync();
    rw.pending.clear();
  }
}

// A few gets of random words (the first is w), one sync, then each value checked.
template <class D>
void random_gets(Checker<D>& ck, std::mt19937_64& rng, RoundWrites& rw, int words) {
  std::int64_t v[3] = {};
  const int k = static_cast<int>(rng() % 3) + 1;
  int ws[3];
  for (int i = 0; i < k; ++i) {
    ws[i] = static_cast<int>(rng() % words);
    sync_if_pending(ck.d, rw, ws[i]);
    ck.d.get(&v[i], ck.word(ws[i]), 1);
  }
  ck.d.sync();
  for (int i = 0; i < k; ++i) ck.check(ws[i], v[i], "get");
}

// One random access to word w: a read (after prefetches with --prefetch), gets, a write, a put
// or a store of a tagged value. Returns the prefetch requests it sent.
template <class D>
std::int64_t random_access(Checker<D>& ck, std::mt19937_64& rng, RoundWrites& rw, int w,
                           int words) {
  D& d = ck.d;
  const auto p = ck.word(w);
  std::int64_t prefetches = 0;
  const auto kind = rng() % 6;
  if (kind <= 1) {
    if (g_prefetch) {
      for (int i = 0; i < 2; ++i)
        prefetches += d.prefetch(ck.word(static_cast<int>(rng() % words)));
    }
    ck.check(w, d.read(p), "read");
    return prefetches;
  }
  if (kind == 2) {
    random_gets(ck, rng, rw, words);
    return prefetches;
  }
  const std::int64_t v = tag(d.rank(), w, ++ck.seq);
  rw.last_write[w] = v;
  if (kind == 3) {
    d.write(p, v);
    ck.check(w, d.read(p), "read-own-write");
  } else {
    if (kind == 4)
      d.put(p, &v, 1);
    else
      d.store(p, &v, 1);
    rw.pending.insert(w);
  }
  return prefetches;
}

// No lost write: each word's final value is the last write of some rank (or, untouched this
// round, whatever it was).
template <class D>
void check_no_lost_write(Checker<D>& ck, const RoundWrites& rw, int words, int round) {
  const int n = ck.n;
  std::vector<std::int64_t> all_last(static_cast<std::size_t>(kWords) * n);
  MPI_Allgather(rw.last_write.data(), kWords, MPI_INT64_T, all_last.data(), kWords, MPI_INT64_T,
                MPI_COMM_WORLD);
  for (int w = 0; w < words; ++w) {
    const std::int64_t v = ck.d.read(ck.word(w));
    ck.check(w, v, "final read");
    bool any = false, found = false;
    for (int r = 0; r < n; ++r) {
      any = any || all_last[r * kWords + w] != 0;
      found = found || all_last[r * kWords + w] == v;
    }
    if (any) {
      EXPECT_TRUE(found) << "round " << round << " word " << w << ": final value " << std::hex << v
                         << " is no rank's last write";
    }
  }
}

// What one rank's run counted: its operations, and its engine's NACKs and retries.
struct StressCounts {
  std::int64_t ops = 0, nacks = 0, retries = 0;
};

// The rounds of random accesses, each checked at its end (coherence, no lost write); then the
// locked increments and the prefetch count.
template <class D>
StressCounts run_stress(D& d, int n) {
  auto a = d.template alloc<std::int64_t>(kWordsPerHome);
  auto counter = d.template alloc<std::int64_t>(1);
  Checker<D> ck{d, a, n,
                std::vector<std::vector<std::int64_t>>(kWords, std::vector<std::int64_t>(n, 0))};
  std::mt19937_64 rng(g_seed * 7919 + static_cast<std::uint64_t>(d.rank()));
  const int words = std::min(kHomes, n) * kWordsPerHome;
  std::int64_t increments = 0, prefetches = 0;
  for (int round = 0; round < g_rounds; ++round) {
    RoundWrites rw;
    for (int op = 0; op < g_ops; ++op) {
      const int w = static_cast<int>(rng() % words);
      sync_if_pending(d, rw, w);
      prefetches += random_access(ck, rng, rw, w, words);
      if (rng() % 10 == 0) {
        d.lock(1);
        d.write(counter.on(0), d.read(counter.on(0)) + 1);
        d.unlock(1);
        ++increments;
      }
    }
    d.barrier();
    check_coherence(d, static_cast<int>(kWordsPerHome * 8 / g_block + (g_block > 64)), n);
    check_no_lost_write(ck, rw, words, round);
    d.barrier();
  }
  std::int64_t total = increments;
  MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(d.read(counter.on(0)), total) << "lost increments under the lock";
  const Stats s = d.stats();
  EXPECT_EQ(s.prefetches, prefetches);
  if (g_prefetch) {
    EXPECT_GT(prefetches, 0) << "no prefetch request went out";
  }
  d.barrier();
  return {static_cast<std::int64_t>(g_rounds) * (g_ops + words) + increments, s.nacks, s.retries};
}

TEST(SwccStress, RandomAccessesStayCoherent) {
  Config c;
  c.block_bytes = g_block;
  c.segment_bytes = 1 << 20;
  c.watchdog_s = 15;  // a hang bound on an idle machine; the engine stretches it with the load
  c.fault.enabled = g_faults;
  c.fault.seed = g_seed;
  int n = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  StressCounts counts;
  try {
    with_dsm(MPI_COMM_WORLD, c, [&](auto& d) { counts = run_stress(d, n); });
  } catch (const std::exception& ex) {
    std::fprintf(stderr, "stress: %s\n", ex.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  std::int64_t nacks = counts.nacks, retries = counts.retries;
  MPI_Allreduce(MPI_IN_PLACE, &nacks, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &retries, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  RecordProperty("nacks", std::to_string(nacks));
  std::printf("swcc stress: ops/rank=%lld nacks=%lld retries=%lld\n",
              static_cast<long long>(counts.ops), static_cast<long long>(nacks),
              static_cast<long long>(retries));
  if (g_faults) {
    EXPECT_GT(nacks, 0) << "fault injection produced no NACK";
    EXPECT_GT(retries, 0) << "fault injection produced no retry";
  }
}

}  // namespace
}  // namespace swcc

// Options read from the command line (after gtest's own): --faults, --prefetch, --seed=N,
// --block=B,
// --rounds=N, --ops=N (random operations per rank and round). Parsed from /proc/self/cmdline
// because the shared MPI gtest main owns argv.
namespace {
struct StressArgs {
  StressArgs() {
    std::FILE* f = std::fopen("/proc/self/cmdline", "rb");
    if (!f) return;
    std::string all;
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) all.append(buf, n);
    std::fclose(f);
    for (std::size_t i = 0; i < all.size();) {
      std::string a = all.c_str() + i;
      i += a.size() + 1;
      if (a == "--faults") swcc::g_faults = true;
      if (a == "--prefetch") swcc::g_prefetch = true;
      if (a.rfind("--seed=", 0) == 0) swcc::g_seed = std::stoull(a.substr(7));
      if (a.rfind("--block=", 0) == 0) swcc::g_block = std::stoull(a.substr(8));
      if (a.rfind("--rounds=", 0) == 0) swcc::g_rounds = std::stoi(a.substr(9));
      if (a.rfind("--ops=", 0) == 0) swcc::g_ops = std::stoi(a.substr(6));
    }
  }
} const g_args;
}  // namespace
