// The COMOPS ops on every swcc configuration: exact results (harness/ops/op_queries.cpp's check)
// for every op, participant count and block size, the counters, and the option checks.
#include <gtest/gtest.h>
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <vector>

#include "comops/rma.hpp"
#include "comops/swcc/backend.hpp"
#include "harness/measure/measure.hpp"
#include "harness/ops/op_binder.hpp"
#include "harness/ops/op_queries.hpp"
#include "tests/op_test_util.hpp"

namespace comops {
namespace {

std::vector<std::unique_ptr<Backend>> backends(const std::vector<std::string>& argv) {
  auto fam = make_swcc_family();
  CLI::App app;
  fam->add_options(app);
  std::vector<std::string> rev(argv.rbegin(), argv.rend());
  app.parse(rev);
  fam->validate();
  return fam->create();
}

// Three warm-up runs on seed 1's inputs, then one run on seed 2's between barriers (one
// operation alone, as the single-call validation was): this participant's wrong elements and
// the op's DSM counters.
struct Checked {
  std::int64_t wrong;
  Counters counters;
};
Checked run_between_barriers(Backend& be, Comm& comm, const Args& a) {
  const int r = comm.rank();
  std::vector<Elem> s(send_count(a, r)), rv(recv_count(a, r));
  Buffers b{s.data(), s.size(), rv.data(), rv.size()};
  auto inst = bind_op(be, a.op)(comm, a, b);
  fill_inputs(a, r, 1, b);
  for (int i = 0; i < 3; ++i) inst->run();
  comm.barrier();
  fill_inputs(a, r, 2, b);
  comm.barrier();
  inst->run();
  comm.barrier();
  return {count_wrong(a, r, 2, b), inst->counters()};
}

TEST(SwccOps, LabelsAndOptions) {
  auto v = backends({"--block-size=8,4096", "--uncached"});
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0]->label(), "swcc-8");
  EXPECT_EQ(v[1]->label(), "swcc-4096");
  EXPECT_EQ(v[2]->label(), "swcc-sc");
  EXPECT_EQ(v[0]->participants(), Participants::kProcesses);
  EXPECT_EQ(backends({})[0]->label(), "swcc-64");
  EXPECT_THROW(backends({"--block-size=100"}), UsageError);
  EXPECT_THROW(backends({"--block-size=64x"}), UsageError);
  EXPECT_EQ(v[1]->context()["block_bytes"], 4096);
}

TEST(SwccOps, EveryOpIsExactOnEveryConfiguration) {
  int world = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  for (auto& be : backends({"--block-size=8,64,4096", "--uncached"})) {
    for (OpKind op : all_ops()) {
      if (!bind_op(*be, op)) continue;  // not in swcc's op table (stream-bw, passive one-sided)
      for (int np = op_min_np(op); np <= world; ++np) {
        // 65536 B in 8-byte blocks puts 8192 messages in flight, past the transport's cap of
        // 1024; at np = 2 only, since oversubscribed runs of it take minutes.
        std::vector<std::size_t> sizes{8, 1000 * 8};
        if (np == 2) sizes.push_back(65536);
        // A window of 64 operations moves 64 times as much per call: small sizes only.
        if (is_rma(op) && rma_shape(op, 8).window > 1) sizes = {8, 512};
        for (std::size_t bytes : sizes) {
          Args a;
          a.op = op;
          a.np = np;
          a.bytes = op_moves_data(op) ? bytes : 0;
          a.count = a.bytes / kElemBytes;
          a.root = np - 1;
          if (op == OpKind::kPingpong) a.root = 0;
          be->spmd(np, [&](Comm& comm) {
            const int r = comm.rank();
            const Checked got = run_between_barriers(*be, comm, a);
            EXPECT_EQ(got.wrong, 0) << be->label() << " " << op_name(op) << " np=" << np
                                    << " bytes=" << a.bytes << " rank " << r;
            const Counters& c = got.counters;
            ASSERT_EQ(c.size(), 8u);
            EXPECT_EQ(c[0].first, "hits");
            EXPECT_EQ(c[3].first, "bytes");
            EXPECT_EQ(c[4].first, "packets");
            EXPECT_EQ(c[7].first, "invalidations");
          });
        }
      }
    }
  }
}

// Back-to-back runs as an MPI program would issue them: each rank refills its send buffer with a
// new seed right before every run and checks its receive buffer right after, with no barrier in
// between. Correct only if no run's writes overtake an earlier run's reads (issue 10): the
// exchanges alternate two buffers, allreduce ends with a DSM barrier.
TEST(SwccOps, CollectivesAreExactBackToBack) {
  int world = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  for (auto& be : backends({"--block-size=8,64,4096", "--uncached"}))
    for (OpKind op :
         {OpKind::kAlltoall, OpKind::kAllgather, OpKind::kAllreduceMax, OpKind::kAllreduceSum})
      for (std::size_t bytes : {std::size_t{8}, std::size_t{1000 * 8}}) {
        Args a;
        a.op = op;
        a.np = world;
        a.bytes = bytes;
        a.count = bytes / kElemBytes;
        be->spmd(world, [&](Comm& comm) {
          const int r = comm.rank();
          std::vector<Elem> s(send_count(a, r)), rv(recv_count(a, r));
          Buffers b{s.data(), s.size(), rv.data(), rv.size()};
          auto inst = bind_op(*be, op)(comm, a, b);
          std::int64_t wrong = 0;
          for (std::uint64_t seed = 100; seed < 120; ++seed) {
            fill_inputs(a, r, seed, b);
            inst->run();
            wrong += count_wrong(a, r, seed, b);
          }
          EXPECT_EQ(wrong, 0) << be->label() << " " << op_name(op) << " bytes=" << bytes << " rank "
                              << r;
          comm.barrier();  // nobody may still use the buffers when they go
        });
      }
}

// Through the harness: exact results, the DSM counters of the timed iterations, and an injected
// fault found.
TEST(SwccOps, ThroughTheHarness) {
  int world = 0, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Pinning pinning(BindPolicy::kNone);
  for (auto& be : backends({"--block-size=64", "--uncached"})) {
    for (OpKind op :
         {OpKind::kPingpong, OpKind::kBroadcast, OpKind::kReduceMax, OpKind::kGather,
          OpKind::kScatter, OpKind::kAlltoall, OpKind::kAllgather, OpKind::kAllreduceSum,
          OpKind::kPutFence, OpKind::kGetFenceBw, OpKind::kPingpongNb}) {
      Args a;
      a.op = op;
      a.np = world;
      a.bytes = 512;
      a.count = a.bytes / kElemBytes;
      MeasureOptions o = test::quick(false, 2);
      for (bool fault : {false, true}) {
        o.inject_fault = fault;
        const PointResult r = measure_point(*be, a, o, pinning);
        if (rank != 0) continue;
        EXPECT_EQ(r.wrong, fault ? 1 : 0) << be->label() << " " << op_name(op);
        ASSERT_EQ(r.counters.size(), 8u);
        EXPECT_EQ(r.counters[2].first, "messages");
        EXPECT_GT(r.counters[2].second, 0) << be->label() << " " << op_name(op);
        EXPECT_EQ(r.counters[4].first, "packets");
        EXPECT_GT(r.counters[4].second, 0) << be->label() << " " << op_name(op);
        // A packet carries at least one message.
        EXPECT_LE(r.counters[4].second, r.counters[2].second) << be->label() << " " << op_name(op);
      }
    }
  }
}

// With the closing barrier every reader holds a copy of every block when the root's next put
// runs, so each timed broadcast invalidates (np-1) x blocks copies, and each scatter one copy per
// block of the readers' parts; without it a reader sometimes had none, because it had not yet
// read the previous operation when the next put ran (and then read the next one's data).
TEST(SwccOps, EveryTimedPutInvalidatesEveryReadersCopy) {
  int world = 0, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Pinning pinning(BindPolicy::kNone);
  for (auto& be : backends({"--block-size=64,4096"})) {
    for (OpKind op : {OpKind::kBroadcast, OpKind::kScatter}) {
      Args a;
      a.op = op;
      a.np = world;
      a.bytes = 65536;
      a.count = a.bytes / kElemBytes;
      const MeasureOptions o = test::quick();
      const PointResult r = measure_point(*be, a, o, pinning);
      if (rank != 0) continue;
      const std::int64_t block = be->context()["block_bytes"];
      const std::int64_t copies = (world - 1) * static_cast<std::int64_t>(a.bytes) / block;
      ASSERT_EQ(r.counters.size(), 8u);
      EXPECT_EQ(r.counters[7].first, "invalidations");
      EXPECT_EQ(r.counters[7].second, 3 * 2 * copies) << be->label() << " " << op_name(op);
      EXPECT_EQ(r.wrong, 0) << be->label() << " " << op_name(op);
    }
  }
}

// The closing barrier of broadcast and scatter, taken away by the test-only switch
// (--swcc-drop-closing-barrier): the validation of measure_point, which runs two operations back
// to back, finds wrong data, while one operation between barriers (the validation before it) is
// exact. Without the barrier the root's next put overtakes the readers' get: after the DSM
// barrier the root writes its own memory without a message (no reader holds a copy yet) and
// serves at most one poll of read requests before it, so a reader of 1024 blocks takes most of
// them from the next operation. At np = 2 (ranks 0 and 1; the others wait). Not sc: its reader
// sends only 8 requests of 8 KiB, which that one poll may serve.
TEST(SwccOps, BackToBackValidationFindsAMissingClosingBarrier) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Pinning pinning(BindPolicy::kNone);
  for (auto& be : backends({"--block-size=64", "--swcc-drop-closing-barrier"})) {
    for (OpKind op : {OpKind::kBroadcast, OpKind::kScatter}) {
      Args a;
      a.op = op;
      a.np = 2;
      a.bytes = 65536;  // 1024 blocks of 64 bytes
      a.count = a.bytes / kElemBytes;
      const std::string what = be->label() + " " + std::string(op_name(op));
      // One operation between barriers, as the validation was: exact.
      std::int64_t single_wrong = 0;
      be->spmd(2, [&](Comm& comm) {
        single_wrong = comm.allreduce(run_between_barriers(*be, comm, a).wrong, Reduce::kSum);
      });
      // The validation of measure_point: two operations back to back.
      const MeasureOptions o = test::quick(false, 2, 1);
      const PointResult r = measure_point(*be, a, o, pinning);
      if (rank != 0) continue;
      EXPECT_EQ(single_wrong, 0) << what;
      EXPECT_GT(r.wrong, 0) << what;
    }
  }
}

}  // namespace
}  // namespace comops
