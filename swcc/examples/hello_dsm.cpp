// hello_dsm: the swcc DSM's API (swcc/swcc.hpp) in one program, for 2 or more ranks: a spread
// array written and read across the ranks, split-phase put and get, a lock, then an interleaved
// array read with prefetch. It checks every value and exits 1 when one is wrong (all ranks
// agree); the tests run it under mpiexec (ctest -R swcc_example).
//
//   mpiexec -n 3 build/tests/swcc/swcc_hello_dsm
#include <mpi.h>

#include <cstddef>
#include <cstdio>

#include "swcc/swcc.hpp"

namespace {

int wrong = 0;  // values on this rank that are not what they must be

void check(long got, long want, const char* what, int rank) {
  if (got == want) return;
  std::printf("hello_dsm: rank %d: %s is %ld, want %ld\n", rank, what, got, want);
  ++wrong;
}

// Every rank writes into the next rank's part of a spread array; reads, put, get and a lock.
void spread_array(swcc::Config cfg) {
  swcc::with_dsm(MPI_COMM_WORLD, cfg, [&](auto& dsm) {  // collective; dsm is a Dsm<64>
    const int me = dsm.rank(), np = dsm.size();
    const int next = (me + 1) % np, prev = (me + np - 1) % np;
    auto a = dsm.template alloc<long>(16);  // collective: 16 longs on every rank

    swcc::global_ptr<long> p = a.on(next) + 5;  // the next rank's element 5
    dsm.write(p, 100L + me);                    // blocking write (a miss: the block comes here)
    dsm.barrier();                              // every write is done
    check(dsm.read(a.on(me) + 5), 100 + prev, "my element 5", me);  // fetched back from prev

    long mine[8], got[8];
    for (int i = 0; i < 8; ++i) mine[i] = 10L * me + i;
    dsm.put(a.on(next) + 8, mine, 8);  // split-phase: elements 8..15 of the next rank
    dsm.barrier();                     // syncs first: the put is complete
    dsm.get(got, a.on(me) + 8, 8);     // split-phase read of my own elements 8..15
    dsm.sync();
    for (int i = 0; i < 8; ++i) check(got[i], 10L * prev + i, "my element 8 + i", me);

    const swcc::global_ptr<long> counter = a.on(0);  // rank 0's element 0
    dsm.lock(0);                                     // a global lock, homed at rank 0
    dsm.write(counter, dsm.read(counter) + 1);
    dsm.unlock(0);
    dsm.barrier();
    check(dsm.read(counter), np, "the counter", me);

    const swcc::Stats s = dsm.stats();
    if (me == 0)
      std::printf("hello_dsm: %d ranks, spread array, block %zu: %lld hits, %lld misses\n", np,
                  dsm.kBlockBytes, static_cast<long long>(s.hits),
                  static_cast<long long>(s.misses));
    dsm.barrier();
  });
}

// Pages of 4 KiB dealt round robin over the ranks (SCI-VM); every rank sums the whole array.
void interleaved_array(swcc::Config cfg) {
  cfg.block_bytes = 4096;  // a block is a page
  cfg.prefetch = 2;        // a read miss to page k also asks for pages k+1 and k+2
  swcc::with_dsm(MPI_COMM_WORLD, cfg, [&](auto& dsm) {
    const int me = dsm.rank();
    const std::size_t n = 8 * 1024;                   // 8 pages of 1024 ints
    auto v = dsm.template alloc_interleaved<int>(n);  // collective; page k at rank k % P
    for (std::size_t i = 0; i < n; ++i)
      if (v[i].rank == me) dsm.write(v, i, static_cast<int>(3 * i));  // the pages homed here
    dsm.barrier();
    long sum = 0;
    for (std::size_t i = 0; i < n; ++i) sum += dsm.read(v, i);  // a miss prefetches
    check(sum, 3L * n * (n - 1) / 2, "the interleaved sum", me);

    const swcc::Stats s = dsm.stats();
    if (me == 0)
      std::printf(
          "hello_dsm: interleaved array, block %zu, prefetch %zu: %lld misses, %lld "
          "prefetches\n",
          dsm.kBlockBytes, cfg.prefetch, static_cast<long long>(s.misses),
          static_cast<long long>(s.prefetches));
    dsm.barrier();
  });
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int me = 0, np = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  if (np < 2) {
    if (me == 0) std::fprintf(stderr, "hello_dsm: run it on 2 or more ranks (mpiexec -n 3)\n");
    MPI_Finalize();
    return 2;
  }
  swcc::Config cfg;  // block_bytes 64, cached; every rank must pass the same values
  cfg.segment_bytes = 1 << 20;
  try {
    spread_array(cfg);
    interleaved_array(cfg);
  } catch (const swcc::Error& e) {  // ConfigError, Timeout, ...
    std::fprintf(stderr, "hello_dsm: rank %d: %s\n", me, e.what());
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  int total = 0;
  MPI_Allreduce(&wrong, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0 && total == 0) std::printf("hello_dsm: every value right\n");
  if (me == 0 && total != 0) std::printf("hello_dsm: %d values wrong\n", total);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
