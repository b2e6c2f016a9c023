// Every op of each shm scheme's op table with 1-4 threads at several sizes (stream-bw with a
// window of 5 messages): exact results through the harness's measure_point, fault injection
// detected, and back-to-back runs without barriers (MPI-like buffer semantics) with a fresh input
// every iteration to expose races.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <string>
#include <tuple>
#include <vector>

#include "comops/rma.hpp"
#include "comops/shm/shm_op.hpp"
#include "harness/measure/measure.hpp"
#include "harness/ops/op_binder.hpp"
#include "harness/ops/op_descriptors.hpp"
#include "harness/ops/op_queries.hpp"
#include "harness/runtime/pinning.hpp"
#include "tests/op_test_util.hpp"
#include "tests/shm/shm_test_util.hpp"

namespace comops {
namespace {

using shm_test::backend;
using shm_test::make_args;

// 8 B and 24 B travel inline in a flag line; 56 B is the largest inline message, 64 B the
// smallest that does not; 16392 B (2049 elements) is just above the sliced-reduction threshold
// and odd; 819208 B (102401 elements) is ~800 KiB and divides evenly among no thread count.
const std::vector<std::size_t> kSizes = {8, 24, 56, 64, 1000, 16392, 819200, 819208};

std::vector<int> nps_for(OpKind op) {
  std::vector<int> nps;
  for (int np = op_min_np(op); np <= 4; ++np) nps.push_back(np);
  return nps;
}

std::string name_of(OpKind op) {
  std::string s(op_name(op));
  for (auto& c : s)
    if (c == '-') c = '_';
  return s;
}

struct Point {
  std::string scheme;
  OpKind op;
  int np;
  std::size_t bytes;
  int root;
};

// Every op a scheme implements (staged has no one-sided ops). back_to_back: only the ops whose
// buffers are their owner's outside its own run, which a passive-target op's target buffer is
// not (the origin writes or reads it whenever it runs: that is what passive target means).
std::vector<Point> all_points(bool roots, bool back_to_back = false) {
  std::vector<Point> out;
  for (const std::string scheme : {"staged", "direct"})
    for (OpKind op : all_ops()) {
      if (!bind_op(backend(scheme), op)) continue;
      if (back_to_back && op_descriptor(op).one_sided() && !rma_shape(op, 0).fence) continue;
      for (int np : nps_for(op)) {
        std::vector<std::size_t> sizes = op_moves_data(op) ? kSizes : std::vector<std::size_t>{0};
        // A window of copies per call (one-sided -bw ops, stream-bw): sizes up to 16 KiB only (800
        // KiB would copy 50 MiB a call, and a one-sided copy takes no other path at large sizes).
        if ((op_descriptor(op).one_sided() && rma_shape(op, 0).window > 1) ||
            op_descriptor(op).windowed())
          std::erase_if(sizes, [](std::size_t b) { return b > (64u << 10); });
        for (std::size_t bytes : sizes) {
          out.push_back({scheme, op, np, bytes, 0});
          const bool rooted = op_descriptor(op).rooted();
          if (roots && rooted && np > 1) out.push_back({scheme, op, np, bytes, np - 1});
        }
      }
    }
  return out;
}

std::string point_name(const testing::TestParamInfo<Point>& info) {
  const Point& p = info.param;
  return p.scheme + "_" + name_of(p.op) + "_np" + std::to_string(p.np) + "_" +
         std::to_string(p.bytes) + "B_root" + std::to_string(p.root);
}

// Many iterations at small sizes: the staged and direct schemes' waits run often enough to race.
MeasureOptions quick_options(std::size_t bytes) {
  return test::quick(false, bytes >= (64u << 10) ? 8 : 200);
}

const Pinning& no_pinning() {
  static const Pinning pinning(BindPolicy::kNone);
  return pinning;
}

class ShmMeasure : public testing::TestWithParam<Point> {};

TEST_P(ShmMeasure, ExactThroughHarness) {
  const Point& p = GetParam();
  const Args args = make_args(p.op, p.np, p.bytes, p.root);
  const PointResult r =
      measure_point(backend(p.scheme), args, quick_options(p.bytes), no_pinning());
  EXPECT_EQ(r.wrong, 0);
  EXPECT_EQ(r.backend, "shm-" + p.scheme);
  EXPECT_EQ(r.cores.size(), static_cast<std::size_t>(p.np));
  EXPECT_EQ(r.rep_max_us.size(), 2u);
}

// The points where a fault can be injected: the op moves data (not barrier) and the participant
// whose received data is corrupted receives some (not at np 1, where nothing is received).
std::vector<Point> fault_points() {
  std::vector<Point> out;
  for (const Point& p : all_points(false)) {
    const Args args = make_args(p.op, p.np, p.bytes, p.root);
    if (op_moves_data(p.op) && recv_count(args, fault_rank(args)) > 0) out.push_back(p);
  }
  return out;
}

class ShmMeasureFault : public testing::TestWithParam<Point> {};

TEST_P(ShmMeasureFault, InjectedFaultIsDetected) {
  const Point& p = GetParam();
  const Args args = make_args(p.op, p.np, p.bytes, p.root);
  const PointResult r = measure_point(backend(p.scheme), args, test::quick(true), no_pinning());
  EXPECT_EQ(r.wrong, 1);  // the one element the harness flipped, nothing else
}

INSTANTIATE_TEST_SUITE_P(All, ShmMeasure, testing::ValuesIn(all_points(false)), point_name);
INSTANTIATE_TEST_SUITE_P(All, ShmMeasureFault, testing::ValuesIn(fault_points()), point_name);

// Back-to-back runs as an MPI program would issue them: each participant refills its own
// buffers with a new seed right before every run and checks its receive buffer right after,
// with no barrier in between. Correct only if a send buffer is never read after its owner's run
// returned and a receive buffer is written only during its owner's run.
class ShmBackToBack : public testing::TestWithParam<Point> {};

TEST_P(ShmBackToBack, FreshInputEveryIteration) {
  const Point& p = GetParam();
  const Args args = make_args(p.op, p.np, p.bytes, p.root);
  const int iterations = p.bytes >= (64u << 10) ? 6 : p.bytes >= 1000 ? 60 : 400;
  const OpFactory factory = bind_op(backend(p.scheme), p.op);
  ASSERT_TRUE(factory);
  std::atomic<std::int64_t> wrong{0};
  std::atomic<int> ran{0};
  backend(p.scheme).spmd(p.np, [&](Comm& comm) {
    const int rank = comm.rank();
    std::vector<Elem> send(std::max<std::size_t>(1, send_count(args, rank)));
    std::vector<Elem> recv(std::max<std::size_t>(1, recv_count(args, rank)));
    Buffers bufs{send.data(), send_count(args, rank), recv.data(), recv_count(args, rank)};
    auto inst = factory(comm, args, bufs);
    std::int64_t mine = 0;
    for (int i = 0; i < iterations; ++i) {
      const std::uint64_t seed = 1000 + static_cast<std::uint64_t>(i);
      fill_inputs(args, rank, seed, bufs);
      inst->run();
      mine += count_wrong(args, rank, seed, bufs);
    }
    comm.barrier();  // nobody may still use the buffers when they go
    inst.reset();
    wrong += mine;
    ++ran;
  });
  EXPECT_EQ(ran.load(), p.np);
  EXPECT_EQ(wrong.load(), 0);
}

INSTANTIATE_TEST_SUITE_P(All, ShmBackToBack, testing::ValuesIn(all_points(true, true)), point_name);

// More threads than cores, each bound by the harness: waits must yield so this finishes.
TEST(ShmOversubscribed, FourBoundThreadsOnFewCores) {
  Pinning pinning(BindPolicy::kCompact);
  for (const std::string scheme : {"staged", "direct"})
    for (OpKind op : all_ops()) {
      if (!bind_op(backend(scheme), op)) continue;
      const Args args = make_args(op, 4, op_moves_data(op) ? 4096 : 0);
      const PointResult r = measure_point(backend(scheme), args, test::quick(false, 100), pinning);
      EXPECT_EQ(r.wrong, 0) << scheme << " " << op_name(op);
      EXPECT_EQ(r.cores.size(), 4u);
    }
  backend("direct").spmd(4, [&](Comm&) { pinning.unbind_self(); });
}

}  // namespace
}  // namespace comops
