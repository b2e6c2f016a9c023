// The COMOPS ops on every swcc configuration: exact results (harness/ops.cpp's check) for every
// op, participant count and block size, the counters, and the option checks.
#include "harness/ops.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <vector>

#include "comops/swcc/backend.hpp"
#include "harness/measure.hpp"
#include "harness/op_binder.hpp"

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
      if (!bind_op(*be, op)) continue;  // not in swcc's op table (stream-bw)
      for (int np = op_min_np(op); np <= world; ++np) {
        // 65536 B in 8-byte blocks puts 8192 messages in flight, past the transport's cap of
        // 1024; at np = 2 only, since oversubscribed runs of it take minutes.
        std::vector<std::size_t> sizes{8, 1000 * 8};
        if (np == 2) sizes.push_back(65536);
        for (std::size_t bytes : sizes) {
          Args a;
          a.op = op;
          a.np = np;
          a.bytes = op_takes_size(op) ? bytes : 0;
          a.count = a.bytes / kElemBytes;
          a.root = np - 1;
          if (op == OpKind::kPingpong) a.root = 0;
          be->spmd(np, [&](Comm& comm) {
            const int r = comm.rank();
            std::vector<Elem> s(send_count(a, r)), rv(recv_count(a, r));
            Buffers b{s.data(), s.size(), rv.data(), rv.size()};
            auto inst = bind_op(*be, op)(comm, a, b);
            fill_inputs(a, r, 1, b);
            for (int i = 0; i < 3; ++i) inst->run();
            comm.barrier();
            fill_inputs(a, r, 2, b);
            comm.barrier();
            inst->run();
            comm.barrier();
            const std::int64_t wrong = count_wrong(a, r, 2, b);
            EXPECT_EQ(wrong, 0) << be->label() << " " << op_name(op) << " np=" << np
                                << " bytes=" << a.bytes << " rank " << r;
            const Counters c = inst->counters();
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

// Through the harness: exact results, the DSM counters of the timed iterations, and an injected
// fault found.
TEST(SwccOps, ThroughTheHarness) {
  int world = 0, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Pinning pinning(BindPolicy::kNone);
  for (auto& be : backends({"--block-size=64", "--uncached"})) {
    for (OpKind op : {OpKind::kPingpong, OpKind::kBroadcast, OpKind::kReduceMax, OpKind::kGather,
                      OpKind::kScatter, OpKind::kPingpongNb}) {
      Args a;
      a.op = op;
      a.np = world;
      a.bytes = 512;
      a.count = a.bytes / kElemBytes;
      MeasureOptions o;
      o.iterations = 2;
      o.warmup = 1;
      o.repetitions = 2;
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

}  // namespace
}  // namespace comops
