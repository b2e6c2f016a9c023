// Where the time of a swcc broadcast goes, phase by phase (comops/swcc/broadcast.cpp's scheme,
// written out here with a clock between the steps):
//   put      the root's blocking bulk write (write_bulk) of S bytes into its own buffer
//            (invalidates the readers' copies)
//   barrier  the DSM barrier after it
//   get      each reader's bulk get of the S bytes, up to sync
//   closing  the closing barrier
// per block size (64, 4096) and sc, as medians (or another quantile) over kIters operations
// (after kWarmup) of the
// critical path (a phase runs from the last rank's end of the previous one to the last rank's end
// of this one), plus the protocol messages and MPI packets per operation, summed over
// ranks. Measured, never asserted.
// Run: mpiexec -n 2 bench/swcc_bulk_phases [bytes, default 819200] [case: swcc-64, swcc-4096 or
// swcc-sc, or all; default all three] [operations, default 40] [quantile, default 0.5: the
// median; 0.1 reports the fastest tenth, steadier on a loaded machine]
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "harness/finalize.hpp"
#include "swcc/swcc.hpp"

namespace {

constexpr int kWarmup = 5;
int kIters = 40;  // argv[3]
constexpr int kPhases = 4;
const char* const kPhaseNames[kPhases] = {"put", "barrier", "get", "closing"};

double kQuantile = 0.5;  // argv[4]

double quantile(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty()
             ? 0
             : v[static_cast<std::size_t>(kQuantile * static_cast<double>(v.size() - 1) + 0.5)];
}

struct Result {
  double phase_us[kPhases] = {};
  double total_us = 0;
  double messages = 0, packets = 0;
};

template <class D>
Result run(D& d, std::size_t bytes) {
  const std::size_t n = bytes / sizeof(long);
  auto buf = d.template alloc<long>(n);
  std::vector<long> src(n), dst(n);
  std::vector<double> samples[kPhases], totals;
  swcc::Stats s0{};
  for (int it = 0; it < kWarmup + kIters; ++it) {
    // Before the operation's first barrier: the root may leave that barrier, and its put may
    // invalidate a reader's copies, before that reader leaves it.
    if (it == kWarmup) s0 = d.stats();
    for (std::size_t i = 0; i < n; ++i) src[i] = static_cast<long>(i) * 7 + it;
    double t[kPhases + 1];
    t[0] = MPI_Wtime();
    if (d.rank() == 0) d.write_bulk(buf.on(0), src.data(), n);  // as the swcc broadcast
    t[1] = MPI_Wtime();
    d.barrier();
    t[2] = MPI_Wtime();
    if (d.rank() != 0) d.read_bulk(dst.data(), buf.on(0), n);
    t[3] = MPI_Wtime();
    d.barrier();
    t[4] = MPI_Wtime();
    if (d.rank() != 0 && dst != src) {
      std::fprintf(stderr, "swcc_bulk_phases: rank %d read wrong data\n", d.rank());
      MPI_Abort(MPI_COMM_WORLD, 3);
    }
    // The critical path: a phase ends when its last rank is done with it (one clock on one
    // host), so each phase is the time from the previous phase's last finisher to its own.
    double start = t[0];
    MPI_Allreduce(MPI_IN_PLACE, &start, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, t + 1, kPhases, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    t[0] = start;
    double dt[kPhases + 1];
    for (int p = 0; p < kPhases; ++p) dt[p] = (t[p + 1] - t[p]) * 1e6;
    dt[kPhases] = (t[kPhases] - t[0]) * 1e6;
    if (it < kWarmup) continue;
    for (int p = 0; p < kPhases; ++p) samples[p].push_back(dt[p]);
    totals.push_back(dt[kPhases]);
  }
  const swcc::Stats s1 = d.stats();
  double c[2] = {static_cast<double>(s1.messages - s0.messages),
                 static_cast<double>(s1.packets - s0.packets)};
  MPI_Allreduce(MPI_IN_PLACE, c, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  Result r;
  for (int p = 0; p < kPhases; ++p) r.phase_us[p] = quantile(samples[p]);
  r.total_us = quantile(totals);
  r.messages = c[0] / kIters;  // the counters include the barriers' traffic (none: MPI's)
  r.packets = c[1] / kIters;
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int me = 0, np = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  if (argc > 3) kIters = std::max(1, std::atoi(argv[3]));
  if (argc > 4) kQuantile = std::clamp(std::atof(argv[4]), 0.0, 1.0);
  const std::size_t bytes = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 819200;
  if (me == 0)
    std::printf(
        "broadcast of %zu bytes, np %d, quantile %.2f of %d operations, us (critical path)\n",
        bytes, np, kQuantile, kIters);
  if (me == 0)
    std::printf("%-10s %9s %9s %9s %9s %9s %10s %9s\n", "blocks", "put", "barrier", "get",
                "closing", "total", "messages", "packets");
  struct Case {
    const char* name;
    std::size_t block;
    bool uncached;
  };
  for (const Case c :
       {Case{"swcc-64", 64, false}, Case{"swcc-4096", 4096, false}, Case{"swcc-sc", 64, true}}) {
    if (argc > 2 && std::strcmp(argv[2], "all") != 0 && std::strcmp(argv[2], c.name) != 0) continue;
    swcc::Config cfg;
    cfg.block_bytes = c.block;
    cfg.uncached = c.uncached;
    cfg.segment_bytes = (bytes + (1 << 16) + 4095) / 4096 * 4096;
    const Result r = swcc::with_dsm(MPI_COMM_WORLD, cfg, [&](auto& d) { return run(d, bytes); });
    if (me == 0)
      std::printf("%-10s %9.1f %9.1f %9.1f %9.1f %9.1f %10.0f %9.0f\n", c.name, r.phase_us[0],
                  r.phase_us[1], r.phase_us[2], r.phase_us[3], r.total_us, r.messages, r.packets);
  }
  comops::finalize_mpi();
  return 0;
}
