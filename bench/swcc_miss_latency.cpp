// The swcc DSM's clean remote read miss against bare MPI, between two ranks:
//   (a) a bare active-message request/reply round trip: rank 0 sends a 32-byte request, rank 1
//       polls with MPI_Iprobe, receives it and replies with a 32-byte header plus S bytes, which
//       rank 0 receives after polling with MPI_Iprobe (S = 8, 64, 512, 4096)
//   (b) a clean remote read miss per block size (8, 64, 256, 1024, 4096): rank 0 reads one
//       element of a block homed at rank 1 that it does not hold. Before every repetition rank
//       1 writes all the blocks, which invalidates rank 0's copies, so each read is a
//       ReadReq/ReadReply pair with the home holding the block exclusively (no flush)
//   (c) the MPI_Send/MPI_Recv ping-pong round trip of 8 bytes, for reference
//   (d) directory bytes per cached block beside the data, at rank 0 after (b)
// Every figure is the median over all samples (each sample timed alone) of kReps repetitions
// after one warm-up repetition. Measured, never asserted.
// Run: mpiexec -n 2 bench/swcc_miss_latency
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "harness/runtime/finalize.hpp"
#include "swcc/swcc.hpp"

namespace {

constexpr int kReps = 10;
constexpr int kSamples = 200;  // per repetition
constexpr int kStopTag = 2, kReqTag = 0, kReplyTag = 1;

double now_us() {
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

void wait_probe(MPI_Comm comm, int tag) {
  int flag = 0;
  while (!flag) MPI_Iprobe(MPI_ANY_SOURCE, tag, comm, &flag, MPI_STATUS_IGNORE);
}

// (a) Returns the median round trip at rank 0 (0 at rank 1).
double am_round_trip(MPI_Comm comm, int me, std::size_t bytes) {
  std::vector<std::uint8_t> req(32), reply(32 + bytes);
  std::vector<double> lat;
  if (me == 0) {
    for (int rep = 0; rep <= kReps; ++rep)
      for (int i = 0; i < kSamples; ++i) {
        const double t0 = now_us();
        MPI_Send(req.data(), 32, MPI_BYTE, 1, kReqTag, comm);
        wait_probe(comm, kReplyTag);
        MPI_Recv(reply.data(), static_cast<int>(reply.size()), MPI_BYTE, 1, kReplyTag, comm,
                 MPI_STATUS_IGNORE);
        if (rep > 0) lat.push_back(now_us() - t0);
      }
    MPI_Send(req.data(), 0, MPI_BYTE, 1, kStopTag, comm);
  } else {
    for (;;) {
      MPI_Status st;
      int flag = 0;
      while (!flag) MPI_Iprobe(0, MPI_ANY_TAG, comm, &flag, &st);
      MPI_Recv(req.data(), 32, MPI_BYTE, 0, st.MPI_TAG, comm, MPI_STATUS_IGNORE);
      if (st.MPI_TAG == kStopTag) break;
      MPI_Send(reply.data(), static_cast<int>(reply.size()), MPI_BYTE, 0, kReplyTag, comm);
    }
  }
  return median(lat);
}

// (c)
double pingpong(MPI_Comm comm, int me) {
  std::uint8_t buf[8] = {};
  std::vector<double> lat;
  for (int rep = 0; rep <= kReps; ++rep)
    for (int i = 0; i < kSamples; ++i) {
      const double t0 = now_us();
      if (me == 0) {
        MPI_Send(buf, 8, MPI_BYTE, 1, 0, comm);
        MPI_Recv(buf, 8, MPI_BYTE, 1, 0, comm, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(buf, 8, MPI_BYTE, 0, 0, comm, MPI_STATUS_IGNORE);
        MPI_Send(buf, 8, MPI_BYTE, 0, 0, comm);
      }
      if (rep > 0) lat.push_back(now_us() - t0);
    }
  return median(lat);
}

struct MissResult {
  double median_us = 0;
  double table_bytes_per_block = 0;  // directory table bytes / cached blocks, at rank 0
  double chunk_bytes_per_block = 0;  // the slab's chunk pointers / cached blocks
  std::size_t blocks = 0;
};

// (b) and (d) for block size B.
template <std::size_t B>
MissResult read_miss(swcc::Dsm<B>& d) {
  const int me = d.rank();
  constexpr std::size_t kPer = B / sizeof(std::int64_t);  // elements per block
  auto a = d.template alloc<std::int64_t>(kSamples * kPer);
  std::vector<std::int64_t> block(kSamples * kPer, 7);
  std::vector<double> lat;
  for (int rep = 0; rep <= kReps; ++rep) {
    if (me == 1) d.write_bulk(a.on(1), block.data(), block.size());  // invalidates rank 0
    d.barrier();
    if (me == 0) {
      for (int i = 0; i < kSamples; ++i) {
        const double t0 = now_us();
        volatile std::int64_t v = d.read(a.on(1) + static_cast<std::ptrdiff_t>(i * kPer));
        (void)v;
        if (rep > 0) lat.push_back(now_us() - t0);
      }
    }
    d.barrier();
  }
  MissResult r;
  r.median_us = median(lat);
  auto& dir = d.engine().dir();
  r.blocks = dir.cached_blocks();
  // Rank 0 caches only blocks of rank 1: the row of rank 1 holds them all; the chunks vector
  // costs one pointer per 64 blocks.
  r.table_bytes_per_block = r.blocks
                                ? static_cast<double>(dir.row(1).capacity() * sizeof(swcc::Entry)) /
                                      static_cast<double>(r.blocks)
                                : 0;
  r.chunk_bytes_per_block = sizeof(void*) / 64.0;
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int me = 0, n = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  if (n != 2) {
    if (me == 0) std::fprintf(stderr, "swcc_miss_latency: run with mpiexec -n 2\n");
    comops::finalize_mpi();
    return 1;
  }
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  const double pp = pingpong(comm, me);
  std::vector<std::pair<std::size_t, double>> am;
  for (std::size_t s : {8, 64, 512, 4096}) {
    MPI_Barrier(comm);
    am.emplace_back(s, am_round_trip(comm, me, s));
  }
  std::vector<std::pair<std::size_t, MissResult>> miss;
  for (std::size_t b : swcc::kBlockSizes) {
    swcc::Config cfg;
    cfg.block_bytes = b;
    cfg.segment_bytes = 8 << 20;
    miss.emplace_back(b, swcc::with_dsm(MPI_COMM_WORLD, cfg, [](auto& d) { return read_miss(d); }));
  }
  if (me == 0) {
    std::printf("swcc miss latency, 2 ranks, median of %d x %d samples (us)\n", kReps, kSamples);
    std::printf("(c) MPI ping-pong 8 B round trip:            %8.2f\n", pp);
    for (auto [s, t] : am) std::printf("(a) active-message request/reply %5zu B:    %8.2f\n", s, t);
    for (auto& [b, r] : miss)
      std::printf("(b) clean remote read miss, block %5zu B:   %8.2f\n", b, r.median_us);
    for (auto& [b, r] : miss)
      std::printf(
          "(d) block %5zu B: %zu cached blocks, directory %.1f B/block (table) + %.3f B/block "
          "(slab chunk pointers)\n",
          b, r.blocks, r.table_bytes_per_block, r.chunk_bytes_per_block);
  }
  MPI_Comm_free(&comm);
  comops::finalize_mpi();
  return 0;
}
