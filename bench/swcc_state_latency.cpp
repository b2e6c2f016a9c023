// Google Benchmark: swcc latency by block state, the SWCC-Split-C paper's Figs 6-7. Rank 0
// times one read and one write of a 4-byte value (int32) in each state of
// bench/swcc_state_cases.hpp, for block sizes 8, 64 and 4096 and for sc; ranks 1 and 2 serve
// (rank 1 homes the remote blocks, rank 2 is the third party). Then rank 0 prints the paper's
// ratios beside ours (bench/swcc_state_ratios.hpp), and writes them as JSON with --ratios_out.
//
// Run: mpiexec -n 3 bench/swcc_state_latency [--accesses=N] [--batch=K] [--ratios_out=FILE]
//      [Google Benchmark flags: --benchmark_filter, --benchmark_out, --benchmark_repetitions ...]
//
// Benchmark names: state/<case>/<read|write>/<B|sc> (Google Benchmark appends
// /iterations:N/manual_time). One iteration is one access; each benchmark makes --accesses of
// them on a DSM of its own, in batches of --batch fresh blocks: all ranks bring the batch's
// blocks to the state (untimed), then rank 0 makes the batch's accesses back to back, one per
// block, timed together (manual time), while ranks 1 and 2 serve in the DSM barrier. The
// protocol messages of the timed accesses are counted over all ranks and must be the case's
// count exactly, and the values read and written are checked; a benchmark that fails either is
// reported as an error. Measured, never asserted.
#include <benchmark/benchmark.h>
#include <fmt/format.h>
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "bench/swcc_state_cases.hpp"
#include "bench/swcc_state_ratios.hpp"
#include "harness/runtime/finalize.hpp"

namespace {

using namespace swcc_state;

struct Options {
  std::size_t accesses = 1024;  ///< timed accesses per benchmark (a multiple of batch)
  std::size_t batch = 64;       ///< fresh blocks set up, then accessed, at a time
  std::string ratios_out;       ///< JSON file of the ratio table ("" = none)
};
Options g_opt;
MPI_Comm g_cmd = MPI_COMM_NULL;  ///< rank 0's commands to the serving ranks, and the counts

/// One benchmark: a case of the sc table or the cached one, an access, a block size.
struct Spec {
  int sc = 0;
  int block = 0;
  int case_index = 0;
  int op = 0;
  int run = 1;  ///< 0: the serving ranks stop
};

const StateCase& case_of(const Spec& s) {
  return (s.sc ? sc_cases() : swcc_cases()).at(static_cast<std::size_t>(s.case_index));
}

// Every rank: runs one benchmark on a fresh DSM. Rank 0 passes its gbench state and decides
// when to stop; the others follow its broadcast.
void run_spec(const Spec& s, benchmark::State* st) {
  const StateCase& c = case_of(s);
  const Op op = s.op ? Op::kWrite : Op::kRead;
  const swcc::Config cfg = state_config(static_cast<std::size_t>(s.block), s.sc, g_opt.accesses);
  swcc::with_dsm(MPI_COMM_WORLD, cfg, [&](auto& d) {
    std::int64_t wrong = 0, wrong_state = 0, messages = 0, accesses = 0;
    for (;;) {
      int more = st ? static_cast<int>(
                          st->KeepRunningBatch(static_cast<benchmark::IterationCount>(g_opt.batch)))
                    : 0;
      MPI_Bcast(&more, 1, MPI_INT, 0, g_cmd);
      if (!more) break;
      const BatchResult r = run_batch(d, c, op, g_opt.batch, g_cmd);
      if (st) st->SetIterationTime(r.seconds);
      wrong += r.wrong;
      wrong_state += r.wrong_state;
      messages += r.messages;
      accesses += static_cast<std::int64_t>(g_opt.batch);
    }
    if (!st) return;
    const int want = c.messages[static_cast<int>(op)];
    st->counters["messages"] =
        accesses ? static_cast<double>(messages) / static_cast<double>(accesses) : 0;
    if (wrong_state)
      st->SkipWithError(
          fmt::format("state not as named: {} blocks not {} at rank 0", wrong_state, c.state)
              .c_str());
    else if (wrong)
      st->SkipWithError(fmt::format("{} wrong values", wrong).c_str());
    else if (messages != want * accesses)
      st->SkipWithError(fmt::format("state not as named: {} messages for {} accesses, expected "
                                    "{} each",
                                    messages, accesses, want)
                            .c_str());
  });
}

void BM_State(benchmark::State& state, Spec s) {
  MPI_Bcast(&s, sizeof s, MPI_BYTE, 0, g_cmd);
  run_spec(s, &state);
}

/// Whether a case needs the third party (rank 2) in its setup.
bool needs_third(const StateCase& c) {
  for (const Step& s : c.setup)
    if (s.rank == kThird) return true;
  return false;
}

/// Registers every case the np ranks can set up: at np 2 the three-party cases are left out.
void register_all(int np) {
  auto reg = [np](const std::vector<StateCase>& cases, int block, bool sc) {
    for (std::size_t i = 0; i < cases.size(); ++i)
      for (int op = 0; op < 2; ++op) {
        if (np <= kThird && needs_third(cases[i])) continue;
        const Spec s{sc ? 1 : 0, block, static_cast<int>(i), op, 1};
        const std::string name = bench_name(cases[i].name, op_name(op ? Op::kWrite : Op::kRead),
                                            static_cast<std::size_t>(block), sc);
        benchmark::RegisterBenchmark(name.c_str(), BM_State, s)
            ->UseManualTime()
            ->Unit(benchmark::kNanosecond)
            ->Iterations(static_cast<benchmark::IterationCount>(g_opt.accesses));
      }
  };
  reg(sc_cases(), 64, true);
  for (std::size_t b : kRatioBlocks) reg(swcc_cases(), static_cast<int>(b), false);
}

/// The console reporter, keeping each benchmark's time per access (ns; the median over
/// repetitions) for the ratio table.
class Capture : public benchmark::ConsoleReporter {
 public:
  /// Never coloured: a rank's stdout goes through the launcher, so whether it is a terminal says
  /// nothing about the user's (Open MPI's mpiexec gives it one even when the output goes to a
  /// file), and a display reporter of one's own does not read --benchmark_color.
  Capture() : ConsoleReporter(OO_Tabular) {}
  std::map<std::string, std::vector<double>> ns;
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs)
      if (r.run_type == Run::RT_Iteration && !r.error_occurred)
        ns[r.run_name.function_name].push_back(r.GetAdjustedRealTime() * 1e9 /
                                               benchmark::GetTimeUnitMultiplier(r.time_unit));
    ConsoleReporter::ReportRuns(runs);
  }
  std::map<std::string, double> medians() const {
    std::map<std::string, double> m;
    for (auto [name, v] : ns) {
      std::sort(v.begin(), v.end());
      m[name] = v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
    }
    return m;
  }
};

// Parses this program's options; the rest is left for Google Benchmark. Returns -1 to go on,
// else the exit code (0 after --help, 2 for bad input; only rank 0 prints).
int parse(int argc, char** argv, int me, std::vector<std::string>& rest) {
  CLI::App app{
      "swcc latency by block state (SWCC-Split-C Figs 6-7); run with mpiexec -n 3 (-n 2 runs "
      "every case but the three-party ones: remote_hit_shared, remote_miss_inval, "
      "remote_miss_flush). Google "
      "Benchmark's flags (--benchmark_filter, --benchmark_out, --benchmark_repetitions, ...) "
      "pass through.",
      "swcc_state_latency"};
  app.allow_extras();
  app.add_option("--accesses", g_opt.accesses,
                 "timed accesses per benchmark, rounded up to a multiple of --batch")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 20))
      ->capture_default_str();
  app.add_option("--batch", g_opt.batch, "fresh blocks set up, then accessed, at a time")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 16))
      ->capture_default_str();
  app.add_option("--ratios_out", g_opt.ratios_out,
                 "also write the ratio table (and the times) to this JSON file");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    if (me == 0) std::printf("%s", app.help().c_str());
    return 0;
  } catch (const CLI::ParseError& e) {
    if (me == 0) std::fprintf(stderr, "swcc_state_latency: error: %s\n", e.what());
    return 2;
  }
  g_opt.accesses = (g_opt.accesses + g_opt.batch - 1) / g_opt.batch * g_opt.batch;
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!g_opt.ratios_out.empty() && fs::exists(g_opt.ratios_out, ec) &&
      !fs::is_regular_file(g_opt.ratios_out, ec)) {
    if (me == 0)
      std::fprintf(stderr, "swcc_state_latency: error: --ratios_out %s is not a regular file\n",
                   g_opt.ratios_out.c_str());
    return 2;
  }
  rest = app.remaining();
  return -1;
}

int run(int argc, char** argv, int me) {
  std::vector<std::string> rest;
  if (int rc = parse(argc, argv, me, rest); rc >= 0) return rc;
  std::vector<char*> args{argv[0]};
  for (auto& a : rest) args.push_back(a.data());
  int n = static_cast<int>(args.size());
  benchmark::Initialize(&n, args.data());
  if (n > 1) {
    if (me == 0) std::fprintf(stderr, "swcc_state_latency: error: unknown argument %s\n", args[1]);
    return 2;
  }
  int np = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  if (np != 2 && np != 3) {
    if (me == 0)
      std::fprintf(stderr, "swcc_state_latency: error: run with mpiexec -n 3 or -n 2 (not %d)\n",
                   np);
    return 2;
  }
  MPI_Comm_dup(MPI_COMM_WORLD, &g_cmd);
  if (me == 0) {
    if (np == 2) {
      std::string left;
      for (const StateCase& c : swcc_cases())
        if (needs_third(c)) left += std::string(left.empty() ? "" : ", ") + c.name;
      std::printf("np 2: the three-party cases need a third rank (mpiexec -n 3), not run: %s\n",
                  left.c_str());
    }
    register_all(np);
    Capture capture;
    benchmark::RunSpecifiedBenchmarks(&capture);
    Spec stop;
    stop.run = 0;
    MPI_Bcast(&stop, sizeof stop, MPI_BYTE, 0, g_cmd);
    const auto ns = capture.medians();
    std::printf("\nThe paper's ratios beside ours (time per access, median over repetitions):\n%s",
                ratio_table(ns).c_str());
    if (!g_opt.ratios_out.empty()) {
      std::ofstream f(g_opt.ratios_out);
      f << ratio_json(ns).dump(2) << "\n";
      f.close();
      if (!f) {
        std::fprintf(stderr, "swcc_state_latency: error: cannot write %s\n",
                     g_opt.ratios_out.c_str());
        MPI_Comm_free(&g_cmd);
        return 3;
      }
    }
  } else {
    for (;;) {  // serve rank 0's benchmarks until it says stop
      Spec s;
      MPI_Bcast(&s, sizeof s, MPI_BYTE, 0, g_cmd);
      if (!s.run) break;
      run_spec(s, nullptr);
    }
  }
  MPI_Comm_free(&g_cmd);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  int rc = 0;
  try {
    rc = run(argc, argv, me);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "swcc_state_latency: error: rank %d: %s\n", me, e.what());
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  benchmark::Shutdown();
  comops::finalize_mpi();
  return rc;
}
