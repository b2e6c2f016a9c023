// One point on every participant: pinned buffers, warm-up, timed repetitions (back to back or a
// barrier before each call), statistics over ranks, per-call samples, validation of operations
// run back to back with fresh seeds, and the backend's counters.
#include "harness/measure/measure.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>

#include "harness/machine/noise.hpp"
#include "harness/machine/steal.hpp"
#include "harness/measure/test_slowdown.hpp"
#include "harness/ops/op_binder.hpp"
#include "harness/ops/op_descriptors.hpp"
#include "harness/ops/op_queries.hpp"
#include "harness/runtime/watchdog.hpp"
#include "harness/util/stats.hpp"

namespace comops {
namespace {

constexpr std::size_t kPage = 4096;
constexpr std::uint64_t kTimingSeedSalt = 0x7157a11fULL;  // timing data differs from checked data
constexpr std::uint64_t kValidationSeedSalt = 0x5eed0b2bULL;  // each validation op its own seed
constexpr double kRepetitionBudgetUs = 100e3;  // automatic iterations: about 0.1 s a repetition
constexpr double kWarmupBudgetUs = 100e3;      // automatic warm-up: about 0.1 s
constexpr int kMinAutoIterations = 1;
constexpr std::size_t kWindowValues = 4;  // a participant's stall, its window, steal, its window

struct FreeDeleter {
  void operator()(Elem* p) const { std::free(p); }
};
using ElemBuffer = std::unique_ptr<Elem[], FreeDeleter>;

// Page-aligned, touched on the calling (bound) thread so its pages are local; may throw bad_alloc.
ElemBuffer allocate(std::size_t count) {
  const std::size_t bytes = std::max<std::size_t>(count * kElemBytes, kElemBytes);
  const std::size_t rounded = (bytes + kPage - 1) / kPage * kPage;
  auto* p = static_cast<Elem*>(std::aligned_alloc(kPage, rounded));
  if (p == nullptr) throw std::bad_alloc();
  std::memset(p, 0, rounded);
  return ElemBuffer(p);
}

// Raises the same AgreedError on every participant when any of them failed.
void agree(Comm& comm, bool failed, const std::string& what) {
  if (comm.allreduce(std::int64_t{failed ? 1 : 0}, Reduce::kMax) != 0) throw AgreedError(what);
}

// The injected failure of the last participant, when `phase` is the one asked for.
void maybe_throw(const MeasureOptions& opt, Phase phase, const Comm& comm) {
  if (opt.inject_throw != phase || comm.rank() != comm.size() - 1) return;
  static constexpr const char* kNames[] = {"", "setup", "warm-up", "timed loop", "validation"};
  throw RuntimeError(fmt::format("injected failure of participant {} in the {}", comm.rank(),
                                 kNames[static_cast<int>(phase)]));
}

using Clock = std::chrono::steady_clock;

double us_between(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double, std::micro>(to - from).count();
}

// `n` calls of `inst` timed the way `sync` says; returns their time in us. `before_call(i)` runs
// before call i (inside the clock with kNone; the fault injection uses it). `samples`: null, or
// n slots for each call's own time:
// - kNone, no samples: back to back, the clock read before the first call and after the last;
// - kNone with samples: back to back, the clock read after each call as well, each call's time
//   the interval since the previous read (the times add up to the whole);
// - kBarrier: comm.barrier() before each call, the clock started after it and stopped after the
//   call; the time is the sum of the calls' times (the barriers are not timed).
template <class BeforeCall>
double run_calls(Comm& comm, OpInstance& inst, Sync sync, int n, double* samples,
                 BeforeCall&& before_call) {
  if (sync == Sync::kBarrier) {
    double total = 0;
    for (int i = 0; i < n; ++i) {
      before_call(i);
      comm.barrier();
      const auto t0 = Clock::now();
      inst.run();
      const double us = us_between(t0, Clock::now());
      total += us;
      if (samples != nullptr) samples[i] = us;
    }
    return total;
  }
  const auto t0 = Clock::now();
  if (samples == nullptr) {
    for (int i = 0; i < n; ++i) {
      before_call(i);
      inst.run();
    }
    return us_between(t0, Clock::now());
  }
  auto previous = t0;
  for (int i = 0; i < n; ++i) {
    before_call(i);
    inst.run();
    const auto t = Clock::now();
    samples[i] = us_between(previous, t);
    previous = t;
  }
  return us_between(t0, previous);
}

// Runs kValidationOps operations of `inst` back to back as the timed loop runs them, each with
// the inputs of its own seed, and returns this participant's wrong elements over all of them.
// An op may keep the buffer pointers it was built with (shm's direct scheme publishes them to
// its peers), so every operation runs on `bufs`: the inputs of the next operations are filled
// beforehand into buffers of their own, and between two operations the participant only copies
// its received data aside and the next inputs in (memcpy, no barrier). A participant whose data
// is taken or overwritten by the next operation (a missing closing barrier) shows as wrong
// elements of the earlier one; data arriving late lands in the next one's receive buffer.
std::int64_t validate_back_to_back(Comm& comm, OpInstance& inst, const Args& args,
                                   const MeasureOptions& opt, Buffers& bufs) {
  const int rank = comm.rank();
  constexpr auto kOps = static_cast<std::size_t>(kValidationOps);
  std::vector<ElemBuffer> storage;
  std::vector<Buffers> inputs(kOps), results(kOps);  // what op k gets and what it delivered
  bool failed = false;
  try {
    for (std::size_t k = 0; k < kOps; ++k) {
      Buffers& in = inputs[k];
      in.send_count = bufs.send_count;
      in.recv_count = bufs.recv_count;
      if (k == 0) {
        in.send = bufs.send;
        in.recv = bufs.recv;
      } else {
        in.send = storage.emplace_back(allocate(in.send_count)).get();
        in.recv = storage.emplace_back(allocate(in.recv_count)).get();
      }
      fill_inputs(args, rank, validation_seed(opt.seed, static_cast<int>(k)), in);
      results[k] = in;
      if (k + 1 < kOps) results[k].recv = storage.emplace_back(allocate(in.recv_count)).get();
    }
    results.back().recv = bufs.recv;
  } catch (const std::bad_alloc&) {
    failed = true;
  }
  agree(comm, failed,
        fmt::format("cannot allocate the validation buffers of {} at {} bytes", op_name(args.op),
                    args.bytes));
  comm.barrier();
  // A passive target takes no part in a call: what the origin put is in place, and the target
  // may refill what the origin gets, only after a barrier (the timed loop checks no data).
  const bool passive = op_descriptor(args.op).passive_target();
  run_calls(comm, inst, passive ? Sync::kBarrier : opt.sync, kValidationOps, nullptr, [&](int i) {
    if (i == 0) return;
    if (passive) comm.barrier();
    const Buffers& done = results[static_cast<std::size_t>(i - 1)];
    const Buffers& next = inputs[static_cast<std::size_t>(i)];
    std::copy_n(bufs.recv, bufs.recv_count, done.recv);
    std::copy_n(next.send, bufs.send_count, bufs.send);
    std::copy_n(next.recv, bufs.recv_count, bufs.recv);
  });
  maybe_throw(opt, Phase::kValidation, comm);
  comm.barrier();
  // The fault-injection switch corrupts the first operation's data: the check of an operation
  // that was followed by another must be able to fail.
  if (opt.inject_fault && rank == fault_rank(args) && bufs.recv_count > 0)
    results.front().recv[bufs.recv_count / 2] ^= 1;
  std::int64_t wrong = 0;
  for (std::size_t k = 0; k < kOps; ++k)
    wrong += count_wrong(args, rank, validation_seed(opt.seed, static_cast<int>(k)), results[k]);
  return wrong;
}

// One participant's buffers of a point, page-aligned and touched on its bound thread, from the
// participant's Comm (shared memory for a process team that reads its peers' buffers).
struct OwnBuffers {
  Buffers bufs;
  BufferSpace space;
};

// This participant's buffers; a failed allocation on any participant is agreed by all of them.
void allocate_buffers(Comm& comm, const Args& args, const MeasureOptions& opt, OwnBuffers& own) {
  const int rank = comm.rank();
  Buffers& bufs = own.bufs;
  bool failed = false;
  try {
    bufs.send_count = send_count(args, rank);
    bufs.recv_count = recv_count(args, rank);
    own.space = comm.allocate_buffers(bufs.send_count, bufs.recv_count);
    bufs.send = own.space.send;
    bufs.recv = own.space.recv;
  } catch (const std::bad_alloc&) {
    failed = true;
  }
  maybe_throw(opt, Phase::kSetup, comm);
  agree(comm, failed,
        fmt::format("cannot allocate the buffers of {} at {} bytes", op_name(args.op), args.bytes));
}

// Each call's own time (samples_calls), empty when not sampled: reps x iterations (the warm-up
// may lower the count, never raise it), allocated and touched before timing; repetition r's calls
// at r x iterations.
std::vector<double> allocate_samples(Comm& comm, const MeasureOptions& opt, int iterations) {
  std::vector<double> samples;
  if (!samples_calls(opt)) return samples;
  const int reps = opt.repetitions;
  bool no_memory = false;
  try {
    samples.assign(static_cast<std::size_t>(reps) * static_cast<std::size_t>(iterations), 0.0);
  } catch (const std::exception&) {  // bad_alloc, length_error
    no_memory = true;
  }
  agree(comm, no_memory, fmt::format("cannot allocate {} x {} per-call samples", reps, iterations));
  return samples;
}

// Warm-up and iterations chosen by size are also held to time budgets, agreed by all
// participants from the slowest one's timings: the first (cold) operation bounds the warm-up,
// the rest of the warm-up bounds the iterations. The warm-up runs the calls as the repetitions
// will (with --sync=barrier a barrier before each), and its budget counts the barriers too: a
// repetition's wall time is what is bounded.
// Returns the time per call the warm-up measured (us, the slowest participant's; 0 without a
// warm-up), from which the watchdog expects each next step (harness/runtime/watchdog.hpp).
double warm_up(Comm& comm, OpInstance& inst, const MeasureOptions& opt, int& warmup,
               int& iterations) {
  auto timed_runs = [&](int n) {
    const auto t0 = Clock::now();
    run_calls(comm, inst, opt.sync, n, nullptr, [](int) {});
    const double us = us_between(t0, Clock::now());
    return n > 0 ? comm.allreduce(us / n, Reduce::kMax) : 0.0;
  };
  if (warmup <= 0) return 0.0;
  maybe_throw(opt, Phase::kWarmup, comm);
  const double first_us = timed_runs(1);
  if (opt.warmup < 0 && first_us > 0)
    warmup = std::clamp(static_cast<int>(kWarmupBudgetUs / first_us), 1, warmup);
  if (warmup > 1) watchdog_progress("warm-up", 2, warmup, first_us * 1e-6 * (warmup - 1));
  const double warm_us = warmup > 1 ? timed_runs(warmup - 1) : first_us;
  if (opt.iterations <= 0 && warm_us > 0)
    iterations =
        std::clamp(static_cast<int>(kRepetitionBudgetUs / warm_us), kMinAutoIterations, iterations);
  return std::max(warm_us, first_us);
}

// What the timed repetitions left on this participant: each one's time per call, the backend's
// counters around them, and the contention over them: its run delay (harness/machine/noise.hpp)
// and its CPUs' steal (harness/machine/steal.hpp; made after binding, so those are its core's).
struct Timed {
  std::vector<double> local_us;
  Counters before, after;
  StallWindow stall = thread_stall_window();
  StallWindow steal = thread_steal_window();
};

// The timed repetitions, a barrier before each; each call's time into `samples` when sampled.
// call_us: the warm-up's time per call, the watchdog's first estimate of a repetition.
void run_repetitions(Comm& comm, OpInstance& inst, const MeasureOptions& opt, int iterations,
                     double call_us, std::vector<double>& samples, Timed& timed) {
  const bool sampled = !samples.empty();
  double rep_s = call_us * 1e-6 * iterations;  // the longest repetition so far
  watchdog_progress("timed repetition", 1, opt.repetitions, rep_s);
  timed.before = inst.counters();
  timed.stall.start();
  timed.steal.start();
  for (int r = 0; r < opt.repetitions; ++r) {
    double* rep_samples = sampled ? samples.data() + static_cast<std::size_t>(r) *
                                                         static_cast<std::size_t>(iterations)
                                  : nullptr;
    const auto rep_start = Clock::now();  // the repetition's wall time, barriers included
    comm.barrier();
    double us = 0;
    if (r == 0 && opt.inject_throw == Phase::kTimed) {
      us = run_calls(comm, inst, opt.sync, iterations, rep_samples, [&](int i) {
        if (i == iterations / 2) maybe_throw(opt, Phase::kTimed, comm);
      });
    } else {
      us = run_calls(comm, inst, opt.sync, iterations, rep_samples, [](int) {});
    }
    timed.local_us[static_cast<std::size_t>(r)] = us / iterations;
    rep_s = std::max(rep_s, us_between(rep_start, Clock::now()) * 1e-6);
    if (r + 1 < opt.repetitions)
      watchdog_progress("timed repetition", r + 2, opt.repetitions, rep_s);
  }
  // What follows: the statistics and the validation, kValidationOps calls run as one repetition's.
  watchdog_progress("validation", 0, 0, rep_s / iterations * kValidationOps);
  timed.steal.stop();
  timed.stall.stop();
  timed.after = inst.counters();
  comm.barrier();
}

// What every participant's timings come to, over the participants: per repetition the min, max
// and sum over timed ranks; each call's max (sampled); each timed participant's stall and steal
// windows; the counters' sums.
struct Reduced {
  std::vector<double> mins, maxs, sums;
  std::vector<double> samples;
  // per participant, kWindowValues: its stall (-1: unreadable), that window's length, its steal
  // (-1: unreadable) and that window's length
  std::vector<double> windows;
  std::vector<std::int64_t> counters;
};

Reduced reduce_timings(Comm& comm, bool timed, int iterations, std::vector<double> samples,
                       const Timed& t) {
  const int reps = static_cast<int>(t.local_us.size());
  const int np = comm.size();
  Reduced out;
  // Statistics over timed ranks, per repetition.
  constexpr double kInf = std::numeric_limits<double>::infinity();
  out.mins = out.maxs = out.sums = t.local_us;
  if (!timed) {
    std::fill(out.mins.begin(), out.mins.end(), kInf);
    std::fill(out.maxs.begin(), out.maxs.end(), -kInf);
    std::fill(out.sums.begin(), out.sums.end(), 0.0);
  }
  comm.allreduce(out.mins.data(), reps, Reduce::kMin);
  comm.allreduce(out.maxs.data(), reps, Reduce::kMax);
  comm.allreduce(out.sums.data(), reps, Reduce::kSum);
  // Each call's time: the max over timed ranks of that call (one repetition at a time, so that
  // the count fits an int).
  out.samples = std::move(samples);
  if (!out.samples.empty()) {
    out.samples.resize(static_cast<std::size_t>(reps) * static_cast<std::size_t>(iterations));
    if (!timed) std::fill(out.samples.begin(), out.samples.end(), -kInf);
    for (int r = 0; r < reps; ++r)
      comm.allreduce(out.samples.data() + static_cast<std::size_t>(r) * iterations, iterations,
                     Reduce::kMax);
  }
  // Each timed participant's windows: its stall and its steal (-1: unreadable; neither is ever
  // negative), each with its length.
  out.windows.assign(kWindowValues * static_cast<std::size_t>(np), 0.0);
  if (timed) {
    const std::size_t at = kWindowValues * static_cast<std::size_t>(comm.rank());
    out.windows[at] = t.stall.stall_us().value_or(-1);
    out.windows[at + 1] = t.stall.window_us();
    out.windows[at + 2] = t.steal.stall_us().value_or(-1);
    out.windows[at + 3] = t.steal.window_us();
  }
  comm.allreduce(out.windows.data(), static_cast<int>(kWindowValues) * np, Reduce::kSum);
  for (std::size_t i = 0; i < t.after.size(); ++i)
    out.counters.push_back(t.after[i].second - (i < t.before.size() ? t.before[i].second : 0));
  if (!out.counters.empty())
    comm.allreduce(out.counters.data(), static_cast<int>(out.counters.size()), Reduce::kSum);
  return out;
}

// Every participant's core (-1: not bound), on every participant.
std::vector<std::int64_t> gather_cores(Comm& comm, int core) {
  std::vector<std::int64_t> cores(static_cast<std::size_t>(comm.size()), 0);
  cores[static_cast<std::size_t>(comm.rank())] = core + 1;
  comm.allreduce(cores.data(), comm.size(), Reduce::kSum);
  for (auto& c : cores) --c;
  return cores;
}

// The timed participants' windows of one kind from Reduced::windows: the stall's (`first` 0) or
// the steal's (2).
std::vector<ParticipantStall> timed_windows(const Args& args, int np,
                                            const std::vector<double>& windows, std::size_t first) {
  std::vector<ParticipantStall> participants;
  for (int p = 0; p < np; ++p) {
    if (!op_is_timed(args, p)) continue;
    const std::size_t at = kWindowValues * static_cast<std::size_t>(p) + first;
    participants.push_back(
        {windows[at] >= 0 ? std::optional<double>(windows[at]) : std::nullopt, windows[at + 1]});
  }
  return participants;
}

// On participant 0: the point's result from what the participants agreed (r.samples sorted).
void write_result(const Args& args, int np, Reduced& r, const Timed& t,
                  const std::vector<std::int64_t>& cores, PointResult& out) {
  int timed_ranks = 0;
  for (int p = 0; p < np; ++p) timed_ranks += op_is_timed(args, p) ? 1 : 0;
  std::vector<double> avgs(r.sums);
  for (auto& a : avgs) a /= timed_ranks;
  out.time_min_us = median(r.mins);
  out.time_avg_us = median(avgs);
  out.time_max_us = median(r.maxs);
  out.rep_max_us = r.maxs;
  if (!r.samples.empty()) out.percentiles_us = percentiles_of(r.samples);
  out.cores.clear();
  for (auto c : cores) out.cores.push_back(static_cast<int>(c));
  const ParticipantStall stall = most_stalled(timed_windows(args, np, r.windows, 0));
  out.cpu_stall_us = stall.stall_us;
  out.cpu_stall_window_us = stall.window_us;
  const ParticipantStall steal = most_stalled(timed_windows(args, np, r.windows, 2));
  out.cpu_steal_us = steal.stall_us;
  out.cpu_steal_window_us = steal.window_us;
  out.counters.clear();
  for (std::size_t i = 0; i < t.after.size(); ++i)
    out.counters.emplace_back(t.after[i].first, r.counters[i]);
}

// Runs on one participant; participant 0 writes `out`.
void measure_on_participant(Comm& comm, const Args& args, const OpFactory& factory,
                            const MeasureOptions& opt, int iterations, int warmup,
                            const Pinning& pinning, const Placement& placement, PointResult& out) {
  const int rank = comm.rank();
  const auto me = static_cast<std::size_t>(rank);
  const int core = pinning.bind_self(placement.local_index.at(me), placement.local_count.at(me));
  OwnBuffers own;
  allocate_buffers(comm, args, opt, own);
  std::unique_ptr<OpInstance> inst = factory(comm, args, own.bufs);
  const bool timed = op_is_timed(args, rank);
  Timed t;
  t.local_us.resize(static_cast<std::size_t>(opt.repetitions));  // allocated before timing
  std::vector<double> samples = allocate_samples(comm, opt, iterations);
  fill_inputs(args, rank, opt.seed ^ kTimingSeedSalt, own.bufs);
  comm.barrier();
  watchdog_progress("warm-up", 1, warmup, 0);  // the first (cold) call: no estimate yet
  const double call_us = warm_up(comm, *inst, opt, warmup, iterations);
  run_repetitions(comm, *inst, opt, iterations, call_us, samples, t);
  Reduced reduced = reduce_timings(comm, timed, iterations, std::move(samples), t);
  // Validation: kValidationOps operations run the way the timed ones ran, back to back (with
  // --sync=barrier a barrier before each), each with its own seed; the results of all of them
  // are checked exactly once the last has run (validate_back_to_back).
  const std::int64_t wrong =
      comm.allreduce(validate_back_to_back(comm, *inst, args, opt, own.bufs), Reduce::kSum);
  const std::vector<std::int64_t> cores = gather_cores(comm, core);
  inst.reset();  // before the buffers it may reference
  if (rank != 0) return;
  out.iterations = iterations;
  out.warmup = warmup;
  out.wrong = wrong;
  write_result(args, comm.size(), reduced, t, cores, out);
}

}  // namespace

std::uint64_t validation_seed(std::uint64_t seed, int k) {
  return k == 0 ? seed : seed ^ (kValidationSeedSalt * static_cast<std::uint64_t>(k));
}

std::optional<Phase> parse_phase(const std::string& name) {
  if (name == "setup") return Phase::kSetup;
  if (name == "warmup") return Phase::kWarmup;
  if (name == "timed") return Phase::kTimed;
  if (name == "validation") return Phase::kValidation;
  return std::nullopt;
}

std::optional<Sync> parse_sync(const std::string& name) {
  if (name == "none") return Sync::kNone;
  if (name == "barrier") return Sync::kBarrier;
  return std::nullopt;
}

const char* sync_name(Sync sync) { return sync == Sync::kBarrier ? "barrier" : "none"; }

std::string sync_description(Sync sync) {
  return sync == Sync::kBarrier
             ? "sync barrier: a barrier before each call, only the call timed (OSU)"
             : "sync none: calls back to back, one barrier per repetition";
}

bool samples_calls(const MeasureOptions& options) {
  return options.sync == Sync::kBarrier || options.percentiles;
}

int iterations_for(std::size_t bytes) {
  constexpr std::size_t kBytesPerRep = 64u << 20;
  const std::size_t n = kBytesPerRep / std::max<std::size_t>(bytes, kElemBytes);
  return static_cast<int>(std::clamp<std::size_t>(n, 20, 10000));
}

int starting_iterations(const MeasureOptions& options, std::size_t bytes) {
  if (options.iterations > 0) return options.iterations;
  // Oversubscribed, every operation waits for the scheduler: the full count would take minutes
  // without telling anything more.
  return options.oversubscribed ? std::max(5, iterations_for(bytes) / 100) : iterations_for(bytes);
}

int warmup_for(int iterations) { return std::max(2, iterations / 10); }

PointResult measure_point(Backend& backend, const Args& args, const MeasureOptions& opt,
                          const Pinning& pinning, const Placement& placement) {
  const OpFactory factory = with_test_slowdown(bind_op(backend, args.op), backend.label(), args);
  if (!factory)
    throw UsageError(
        fmt::format("backend {} does not implement {}", backend.label(), op_name(args.op)));
  if (opt.repetitions < 1) throw UsageError("--repetitions must be at least 1");
  PointResult out;
  out.backend = backend.label();
  out.args = args;
  out.iterations = starting_iterations(opt, args.bytes);
  out.warmup = opt.warmup >= 0 ? opt.warmup : warmup_for(out.iterations);
  out.repetitions = opt.repetitions;
  out.nodes = placement.nodes;
  out.pair = placement.pair;
  if (placement.group.size() != args.np)
    throw RuntimeError(
        fmt::format("placement of {} participants for np={}", placement.group.size(), args.np));
  backend.spmd(placement.group, [&](Comm& comm) {
    measure_on_participant(comm, args, factory, opt, out.iterations, out.warmup, pinning, placement,
                           out);
  });
  return out;
}

PointResult measure_point(Backend& backend, const Args& args, const MeasureOptions& opt,
                          const Pinning& pinning) {
  const NodeMap one = single_node_map(std::max(args.np, 1));
  Placement placement = place_threads(one, args.np, Pair::kNone);
  return measure_point(backend, args, opt, pinning, placement);
}

}  // namespace comops
