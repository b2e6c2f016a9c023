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
// Two MPI rows come first, the yardsticks: "mpi", MPI_Bcast of the root's unchanged source (as
// comops' mpi broadcast), and "mpi-staged", the staged scheme's copies with MPI's transport and
// no protocol (run_mpi): the floor a DSM broadcast could reach.
// Run: mpiexec -n 2 bench/swcc_bulk_phases [bytes, default 819200] [case: mpi, mpi-staged,
// swcc-64, swcc-4096 or swcc-sc, or all; default all five] [operations, default 40] [quantile,
// default 0.5: the median; 0.1 reports the fastest tenth, steadier on a loaded machine]
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "harness/runtime/finalize.hpp"
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
  double messages = -1, packets = -1;  ///< per operation; negative: not counted (the MPI rows)
};

// The timed operations of one case, as critical paths: a phase ends when its last rank is done
// with it (one clock on one host), so each phase is the time from the previous phase's last
// finisher to its own.
struct Phases {
  std::vector<double> samples[kPhases], totals;
  // One operation's phase ends t[1..kPhases] after its start t[0], on this rank. Collective.
  void add(double t[kPhases + 1]) {
    double start = t[0];
    MPI_Allreduce(MPI_IN_PLACE, &start, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, t + 1, kPhases, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    for (int p = 0; p < kPhases; ++p) samples[p].push_back((t[p + 1] - (p ? t[p] : start)) * 1e6);
    totals.push_back((t[kPhases] - start) * 1e6);
  }
  Result result() const {
    Result r;
    for (int p = 0; p < kPhases; ++p) r.phase_us[p] = quantile(samples[p]);
    r.total_us = quantile(totals);
    return r;
  }
};

void print_row(const char* name, const Result& r) {
  std::printf("%-10s %9.1f %9.1f %9.1f %9.1f %9.1f", name, r.phase_us[0], r.phase_us[1],
              r.phase_us[2], r.phase_us[3], r.total_us);
  if (r.messages < 0)
    std::printf(" %10s %9s\n", "-", "-");
  else
    std::printf(" %10.0f %9.0f\n", r.messages, r.packets);
}

// The floor of the staged scheme with MPI's own transport and no protocol: the root copies its
// source into a buffer (put: a fresh copy each operation, as the DSM's home memory gets), MPI
// barrier, MPI_Bcast of that buffer into the readers' staging buffer and a copy out of it (get:
// the DSM's cache, then the caller's buffer), MPI barrier. `staged` false: MPI_Bcast straight
// from the root's unchanged source into the readers' buffer (comops' mpi broadcast), its phases
// put and closing empty, and its source written once (comops' timed loop does not rewrite it).
Result run_mpi(std::size_t bytes, bool staged) {
  const std::size_t n = bytes / sizeof(long);
  std::vector<long> src(n), buf(n), dst(n);
  Phases phases;
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  for (int it = 0; it < kWarmup + kIters; ++it) {
    // The staged root writes its source afresh each time (as the swcc cases do); mpi's source
    // stays as it was written once, as in comops' timed loop. The readers' buffer is cleared
    // (untimed), so that each operation's data is checked.
    if (staged || it == 0)
      for (std::size_t i = 0; i < n; ++i) src[i] = static_cast<long>(i) * 7 + it;
    if (me != 0) std::fill(dst.begin(), dst.end(), -1L);
    double t[kPhases + 1];
    MPI_Barrier(MPI_COMM_WORLD);
    t[0] = MPI_Wtime();
    if (staged && me == 0) std::memcpy(buf.data(), src.data(), bytes);
    t[1] = MPI_Wtime();
    if (staged) MPI_Barrier(MPI_COMM_WORLD);
    t[2] = MPI_Wtime();
    long* from = staged ? buf.data() : (me == 0 ? src.data() : dst.data());
    MPI_Bcast(from, static_cast<int>(n), MPI_LONG, 0, MPI_COMM_WORLD);
    if (staged && me != 0) std::memcpy(dst.data(), buf.data(), bytes);
    t[3] = MPI_Wtime();
    if (staged) MPI_Barrier(MPI_COMM_WORLD);
    t[4] = MPI_Wtime();
    if (me != 0 && dst != src) {
      std::fprintf(stderr, "swcc_bulk_phases: rank %d received wrong data (mpi)\n", me);
      MPI_Abort(MPI_COMM_WORLD, 3);
    }
    if (it >= kWarmup) phases.add(t);
  }
  return phases.result();
}

template <class D>
Result run(D& d, std::size_t bytes) {
  const std::size_t n = bytes / sizeof(long);
  auto buf = d.template alloc<long>(n);
  std::vector<long> src(n), dst(n);
  Phases phases;
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
    if (it >= kWarmup) phases.add(t);
  }
  const swcc::Stats s1 = d.stats();
  double c[2] = {static_cast<double>(s1.messages - s0.messages),
                 static_cast<double>(s1.packets - s0.packets)};
  MPI_Allreduce(MPI_IN_PLACE, c, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  Result r = phases.result();
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
  const auto selected = [&](const char* name) {
    return argc <= 2 || std::strcmp(argv[2], "all") == 0 || std::strcmp(argv[2], name) == 0;
  };
  for (const bool staged : {false, true}) {
    const char* name = staged ? "mpi-staged" : "mpi";
    if (!selected(name)) continue;
    const Result r = run_mpi(bytes, staged);
    if (me == 0) print_row(name, r);
  }
  for (const Case c :
       {Case{"swcc-64", 64, false}, Case{"swcc-4096", 4096, false}, Case{"swcc-sc", 64, true}}) {
    if (!selected(c.name)) continue;
    swcc::Config cfg;
    cfg.block_bytes = c.block;
    cfg.uncached = c.uncached;
    cfg.segment_bytes = (bytes + (1 << 16) + 4095) / 4096 * 4096;
    const Result r = swcc::with_dsm(MPI_COMM_WORLD, cfg, [&](auto& d) { return run(d, bytes); });
    if (me == 0) print_row(c.name, r);
  }
  comops::finalize_mpi();
  return 0;
}
