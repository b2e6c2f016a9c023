// Unit tests of the default iteration and warm-up counts (harness/measure/measure.hpp), of what
// measure_point runs with default and given options and with each --sync (on one-participant fake
// backends), and of the noise probes (harness/machine/noise.hpp), which only read /proc. The
// contended threshold (kContendedStallShare) is tested where it acts: make_row in
// test_reporters.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "comops/op.hpp"
#include "harness/machine/noise.hpp"
#include "harness/measure/measure.hpp"
#include "harness/ops/op_queries.hpp"
#include "harness/runtime/pinning.hpp"

namespace comops {
namespace {

TEST(IterationsFor, SixtyFourMiBPerRepetitionClamped) {
  EXPECT_EQ(iterations_for(8), 10000);
  EXPECT_EQ(iterations_for(0), 10000);
  EXPECT_EQ(iterations_for(1), 10000);
  EXPECT_EQ(iterations_for(4096), 10000);  // 16384 clamped
  EXPECT_EQ(iterations_for(8192), 8192);   // 64 MiB / 8 KiB
  EXPECT_EQ(iterations_for(65536), 1024);  // 64 MiB / 64 KiB
  EXPECT_EQ(iterations_for(819200), 81);   // 64 MiB / 800 KiB, rounded down
  EXPECT_EQ(iterations_for(1u << 20), 64);
  EXPECT_EQ(iterations_for(8u << 20), 20);  // 8, clamped up
  EXPECT_EQ(iterations_for(1u << 30), 20);
}

TEST(WarmupFor, TenthAtLeastTwo) {
  EXPECT_EQ(warmup_for(10000), 1000);
  EXPECT_EQ(warmup_for(81), 8);
  EXPECT_EQ(warmup_for(29), 2);
  EXPECT_EQ(warmup_for(20), 2);
  EXPECT_EQ(warmup_for(5), 2);
  EXPECT_EQ(warmup_for(1), 2);
}

// A one-participant backend whose reduce-sum (a copy of the send buffer at np 1) records every
// run. Its Comm reports every agreed time as 0 us, as on an infinitely fast machine, so that the
// time budgets of measure_point never lower the counts chosen by size: what it runs is exact.
struct Recorder {
  int runs = 0;
  std::vector<Elem> first_sent;  // send[0] at each run
};

class LoneComm final : public Comm {
 public:
  explicit LoneComm(double agreed_us = 0.0) : agreed_us_(agreed_us) {}
  int rank() const override { return 0; }
  int size() const override { return 1; }
  void barrier() override {}
  void allreduce(double* values, int n, Reduce) override {
    std::fill(values, values + n, agreed_us_);
  }
  void allreduce(std::int64_t*, int, Reduce) override {}

 private:
  double agreed_us_;
};

class CopyOp final : public OpInstance {
 public:
  CopyOp(Buffers& b, Recorder& rec) : b_(b), rec_(rec) {}
  void run() override {
    ++rec_.runs;
    rec_.first_sent.push_back(b_.send[0]);
    std::copy(b_.send, b_.send + b_.send_count, b_.recv);
  }

 private:
  Buffers& b_;
  Recorder& rec_;
};

class LoneBackend final : public Backend {
 public:
  LoneBackend() = default;
  /// Every time the participants agree on (each call's time in the warm-up) is `agreed_us`.
  explicit LoneBackend(double agreed_us) : agreed_us_(agreed_us) {}
  std::shared_ptr<Recorder> rec = std::make_shared<Recorder>();
  std::string label() const override { return "lone"; }
  Participants participants() const override { return Participants::kThreads; }
  OpTable ops() const override {
    return {{OpKind::kReduceSum,
             [rec = rec](Comm&, const Args&, Buffers& b) -> std::unique_ptr<OpInstance> {
               return std::make_unique<CopyOp>(b, *rec);
             }}};
  }
  int max_participants() const override { return 1; }
  void spmd(const Group& group, const std::function<void(Comm&)>& body) override {
    ASSERT_EQ(group.size(), 1);
    LoneComm comm(agreed_us_);
    body(comm);
  }

 private:
  double agreed_us_ = 0.0;
};

Args lone_reduce(std::size_t bytes) {
  Args a;
  a.op = OpKind::kReduceSum;
  a.np = 1;
  a.bytes = bytes;
  a.count = bytes / kElemBytes;
  return a;
}

// Default options: iterations and warm-up chosen by size, 5 repetitions, the data checked with
// seed 1, no fault injected.
TEST(MeasureOptions, DefaultsChooseCountsBySizeFiveRepetitionsSeedOneNoFault) {
  const Pinning pinning(BindPolicy::kNone);
  struct Want {
    std::size_t bytes;
    int iterations, warmup;
  };
  for (const Want w : {Want{8, 10000, 1000}, Want{1u << 20, 64, 6}}) {
    LoneBackend be;
    const PointResult r = measure_point(be, lone_reduce(w.bytes), MeasureOptions{}, pinning);
    EXPECT_EQ(r.iterations, w.iterations) << w.bytes;
    EXPECT_EQ(r.warmup, w.warmup) << w.bytes;
    EXPECT_EQ(r.repetitions, 5) << w.bytes;
    EXPECT_EQ(r.rep_max_us.size(), 5u) << w.bytes;
    // warm-up, 5 timed repetitions, the checked runs
    EXPECT_EQ(be.rec->runs, w.warmup + 5 * w.iterations + kValidationOps) << w.bytes;
    ASSERT_EQ(be.rec->first_sent.size(), static_cast<std::size_t>(be.rec->runs));
    const auto checked = be.rec->first_sent.end() - kValidationOps;
    EXPECT_EQ(checked[0], 2529590368) << "first checked data is not pattern(seed 1)";
    EXPECT_EQ(checked[1], pattern(validation_seed(1, 1), 0, 0));
    EXPECT_NE(checked[1], checked[0]) << "back-to-back checked runs need different data";
    EXPECT_NE(be.rec->first_sent.front(), 2529590368) << "timed data must differ from checked";
    EXPECT_EQ(r.wrong, 0) << "a fault was injected by default";
  }
}

// Oversubscribed (issue 10): the counts chosen by size start from a hundredth (at least 5) and
// stay chosen by size, so the 0.1 s budgets still lower them. Before, the driver passed the
// hundredth as a given count: 100 calls a repetition whatever a call took (an np 4 EM3D or
// matmul point on 2 cores: 100 x 0.2-1.4 s per repetition, minutes a point).
TEST(MeasureOptions, OversubscribedStartsFromAHundredthAndKeepsTheTimeBudgets) {
  const Pinning pinning(BindPolicy::kNone);
  MeasureOptions o;
  o.oversubscribed = true;
  EXPECT_EQ(starting_iterations(o, 8), 100);
  EXPECT_EQ(starting_iterations(o, 0), 100);       // an application's point
  EXPECT_EQ(starting_iterations(o, 1u << 20), 5);  // 64 / 100, raised to 5
  EXPECT_EQ(starting_iterations(MeasureOptions{}, 8), 10000);
  o.iterations = 3;
  EXPECT_EQ(starting_iterations(o, 8), 3) << "a given count is never changed";
  o.iterations = 0;
  {  // calls of no time: the hundredth is what runs
    LoneBackend be;
    const PointResult r = measure_point(be, lone_reduce(8), o, pinning);
    EXPECT_EQ(r.iterations, 100);
    EXPECT_EQ(r.warmup, 10);
    EXPECT_EQ(be.rec->runs, 10 + 5 * 100 + kValidationOps);
  }
  {  // 40 ms a call: the warm-up budget keeps 2 of 10, the repetition budget 2 of 100
    LoneBackend be(40e3);
    const PointResult r = measure_point(be, lone_reduce(8), o, pinning);
    EXPECT_EQ(r.iterations, 2);
    EXPECT_EQ(r.warmup, 2);
    EXPECT_EQ(be.rec->runs, 2 + 5 * 2 + kValidationOps);
  }
  {  // 300 ms a call (swcc-8 matmul at np 4 on 2 cores): one call a repetition, one warm-up
    LoneBackend be(300e3);
    const PointResult r = measure_point(be, lone_reduce(8), o, pinning);
    EXPECT_EQ(r.iterations, 1);
    EXPECT_EQ(r.warmup, 1);
    EXPECT_EQ(be.rec->runs, 1 + 5 * 1 + kValidationOps);
  }
}

// Given counts are what runs, however long a call takes.
TEST(MeasureOptions, GivenCountsAreNotLoweredByTheTimeBudgets) {
  const Pinning pinning(BindPolicy::kNone);
  MeasureOptions o;
  o.iterations = 7;
  o.warmup = 3;
  o.repetitions = 2;
  o.oversubscribed = true;
  LoneBackend be(300e3);
  const PointResult r = measure_point(be, lone_reduce(8), o, pinning);
  EXPECT_EQ(r.iterations, 7);
  EXPECT_EQ(r.warmup, 3);
  EXPECT_EQ(be.rec->runs, 3 + 2 * 7 + kValidationOps);
}

TEST(MeasureOptions, GivenCountsSeedAndFaultAreHonouredExactly) {
  const Pinning pinning(BindPolicy::kNone);
  MeasureOptions o;
  o.iterations = 3;
  o.warmup = 4;
  o.repetitions = 2;
  o.seed = 7;
  o.inject_fault = true;
  LoneBackend be;
  const PointResult r = measure_point(be, lone_reduce(64), o, pinning);
  EXPECT_EQ(r.iterations, 3);
  EXPECT_EQ(r.warmup, 4);
  EXPECT_EQ(r.repetitions, 2);
  EXPECT_EQ(r.rep_max_us.size(), 2u);
  EXPECT_EQ(be.rec->runs, 4 + 2 * 3 + kValidationOps);
  ASSERT_EQ(be.rec->first_sent.size(), static_cast<std::size_t>(be.rec->runs));
  EXPECT_EQ(*(be.rec->first_sent.end() - kValidationOps), 1392324084);  // pattern(7, 0, 0)
  EXPECT_EQ(r.wrong, 1);  // the first checked run's data, corrupted after the last one ran
}

// --sync and per-call samples, on a one-participant backend whose Comm is what np 1 means (an
// allreduce leaves the values as they are) and counts its barriers, and whose op spins for at
// least kSpinUs on the steady clock, so each call takes at least that long (a physical bound).
constexpr double kSpinUs = 20;

struct SyncRecord {
  int barriers = 0;
  int runs = 0;
  std::vector<int> barriers_before;  // barriers so far, at each run
  std::vector<Elem> sent, received;  // send[0] and recv[0] as each run begins
};

class CountingComm final : public Comm {
 public:
  explicit CountingComm(SyncRecord& rec) : rec_(rec) {}
  int rank() const override { return 0; }
  int size() const override { return 1; }
  void barrier() override { ++rec_.barriers; }
  void allreduce(double*, int, Reduce) override {}
  void allreduce(std::int64_t*, int, Reduce) override {}

 private:
  SyncRecord& rec_;
};

class SpinOp final : public OpInstance {
 public:
  SpinOp(Buffers& b, SyncRecord& rec) : b_(b), rec_(rec) {}
  void run() override {
    ++rec_.runs;
    rec_.barriers_before.push_back(rec_.barriers);
    rec_.sent.push_back(b_.send[0]);
    rec_.received.push_back(b_.recv[0]);
    const auto start = std::chrono::steady_clock::now();
    while (std::chrono::steady_clock::now() - start <
           std::chrono::duration<double, std::micro>(kSpinUs)) {
    }
    std::copy(b_.send, b_.send + b_.send_count, b_.recv);
  }

 private:
  Buffers& b_;
  SyncRecord& rec_;
};

class SpinBackend final : public Backend {
 public:
  std::shared_ptr<SyncRecord> rec = std::make_shared<SyncRecord>();
  std::string label() const override { return "spin"; }
  Participants participants() const override { return Participants::kThreads; }
  OpTable ops() const override {
    return {{OpKind::kReduceSum,
             [rec = rec](Comm&, const Args&, Buffers& b) -> std::unique_ptr<OpInstance> {
               return std::make_unique<SpinOp>(b, *rec);
             }}};
  }
  int max_participants() const override { return 1; }
  void spmd(const Group& group, const std::function<void(Comm&)>& body) override {
    ASSERT_EQ(group.size(), 1);
    CountingComm comm(*rec);
    body(comm);
  }
};

MeasureOptions spin_options(Sync sync, bool percentiles) {
  MeasureOptions o;
  o.iterations = 4;
  o.warmup = 2;
  o.repetitions = 3;
  o.sync = sync;
  o.percentiles = percentiles;
  return o;
}

// Barriers of a point measured back to back: one after the inputs are filled, one before each
// repetition, one after the last, one before and one after the validation operations (which run
// back to back).
constexpr int kNoneBarriers = 1 + 3 + 1 + 2;

TEST(MeasureSync, NoneRunsBackToBackWithoutPercentiles) {
  const Pinning pinning(BindPolicy::kNone);
  SpinBackend be;
  const PointResult r =
      measure_point(be, lone_reduce(64), spin_options(Sync::kNone, false), pinning);
  EXPECT_EQ(be.rec->runs, 2 + 3 * 4 + kValidationOps);
  EXPECT_EQ(be.rec->barriers, kNoneBarriers);
  EXPECT_FALSE(r.percentiles_us.has_value());
  EXPECT_GE(r.time_max_us, kSpinUs);
  EXPECT_EQ(r.wrong, 0);
}

// A barrier before every call: the warm-up's, the timed ones' and the validation's.
TEST(MeasureSync, BarrierBeforeEachCallAndPercentilesOfTheCalls) {
  const Pinning pinning(BindPolicy::kNone);
  SpinBackend be;
  const PointResult r =
      measure_point(be, lone_reduce(64), spin_options(Sync::kBarrier, false), pinning);
  EXPECT_EQ(be.rec->runs, 2 + 3 * 4 + kValidationOps);
  EXPECT_EQ(be.rec->barriers, kNoneBarriers + 2 + 3 * 4 + kValidationOps);
  ASSERT_TRUE(r.percentiles_us.has_value());
  const Percentiles& p = *r.percentiles_us;
  EXPECT_GE(p.p50, kSpinUs);
  EXPECT_LE(p.p50, p.p90);
  EXPECT_LE(p.p90, p.p99);
  EXPECT_LE(p.p99, p.max);
  // The headline is a mean of per-call times, so no larger than the slowest call.
  EXPECT_GE(r.time_max_us, kSpinUs);
  EXPECT_LE(r.time_max_us, p.max);
  EXPECT_EQ(r.wrong, 0);
}

// --percentiles with none: the same calls and barriers as none, each call timed alone.
TEST(MeasureSync, NoneWithPercentilesKeepsTheCallsBackToBack) {
  const Pinning pinning(BindPolicy::kNone);
  SpinBackend be;
  const PointResult r =
      measure_point(be, lone_reduce(64), spin_options(Sync::kNone, true), pinning);
  EXPECT_EQ(be.rec->runs, 2 + 3 * 4 + kValidationOps);
  EXPECT_EQ(be.rec->barriers, kNoneBarriers);
  ASSERT_TRUE(r.percentiles_us.has_value());
  EXPECT_GE(r.percentiles_us->p50, kSpinUs);
  EXPECT_LE(r.percentiles_us->p50, r.percentiles_us->p90);
  EXPECT_LE(r.percentiles_us->p90, r.percentiles_us->p99);
  EXPECT_LE(r.percentiles_us->p99, r.percentiles_us->max);
  EXPECT_LE(r.time_max_us, r.percentiles_us->max);
}

// The validation runs kValidationOps calls back to back (no barrier between them with none),
// each on the inputs of its own seed with a receive buffer that holds no result yet, and checks
// them all after the last.
TEST(MeasureSync, ValidationRunsBackToBackOnFreshInputsOfItsOwnSeeds) {
  const Pinning pinning(BindPolicy::kNone);
  SpinBackend be;
  MeasureOptions o = spin_options(Sync::kNone, false);
  o.seed = 7;
  const PointResult r = measure_point(be, lone_reduce(64), o, pinning);
  const SyncRecord& rec = *be.rec;
  ASSERT_EQ(rec.runs, 2 + 3 * 4 + kValidationOps);
  ASSERT_EQ(rec.sent.size(), static_cast<std::size_t>(rec.runs));
  const std::size_t first = rec.sent.size() - kValidationOps;
  for (std::size_t k = 0; k < static_cast<std::size_t>(kValidationOps); ++k) {
    EXPECT_EQ(rec.sent[first + k], pattern(validation_seed(7, static_cast<int>(k)), 0, 0)) << k;
    EXPECT_NE(rec.received[first + k], rec.sent[first + k]) << k;  // no result before the run
    if (k > 0) {
      EXPECT_NE(rec.sent[first + k], rec.sent[first + k - 1]) << k;
      EXPECT_NE(rec.received[first + k], rec.sent[first + k - 1]) << k;  // the last one moved
      EXPECT_EQ(rec.barriers_before[first + k], rec.barriers_before[first]) << k;
    }
  }
  EXPECT_EQ(validation_seed(7, 0), 7u);
  EXPECT_EQ(r.wrong, 0);
}

// The injected failure halfway through the first repetition still fires with the barrier mode.
TEST(MeasureSync, InjectedTimedFailureFiresUnderBarrier) {
  const Pinning pinning(BindPolicy::kNone);
  SpinBackend be;
  MeasureOptions o = spin_options(Sync::kBarrier, false);
  o.inject_throw = Phase::kTimed;
  EXPECT_THROW(measure_point(be, lone_reduce(64), o, pinning), RuntimeError);
  EXPECT_EQ(be.rec->runs, 2 + 4 / 2);  // the warm-up, then half of the first repetition
}

TEST(Noise, IdleShareIsAShare) {
  const auto idle = cpu_idle_share(20);
  if (!idle) GTEST_SKIP() << "/proc/stat did not advance";
  EXPECT_GE(*idle, 0.0);
  EXPECT_LE(*idle, 1.0);
}

TEST(Noise, StallCounterNeverGoesBack) {
  const auto a = cpu_stall_total_us();
  if (!a) GTEST_SKIP() << "no PSI on this kernel";
  const auto b = cpu_stall_total_us();
  ASSERT_TRUE(b.has_value());
  EXPECT_GE(*b, *a);
}

}  // namespace
}  // namespace comops
