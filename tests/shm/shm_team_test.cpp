// The shm thread team and family: Comm (rank, barrier, allreduce), failures inside the parallel
// region come out of spmd as exceptions (never a hang), options, labels and context.
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <string>
#include <vector>

#include "comops/shm/backend.hpp"
#include "harness/measure/measure.hpp"
#include "harness/ops/op_binder.hpp"
#include "harness/ops/op_queries.hpp"
#include "harness/runtime/pinning.hpp"
#include "tests/shm/shm_test_util.hpp"

namespace comops {
namespace {

using shm_test::backend;
using shm_test::make_args;

const std::vector<std::string> kSchemes = {"staged", "direct"};

TEST(ShmTeam, RanksAreDistinctAndComplete) {
  for (int np : {1, 2, 3, 4, 7}) {
    std::vector<std::atomic<int>> seen(static_cast<std::size_t>(np));
    backend("direct").spmd(np, [&](Comm& comm) {
      EXPECT_EQ(comm.size(), np);
      ++seen[static_cast<std::size_t>(comm.rank())];
    });
    for (auto& s : seen) EXPECT_EQ(s.load(), 1);
  }
}

TEST(ShmTeam, BarrierSeparatesPhases) {
  for (int np : {2, 3, 4, 5}) {
    std::atomic<int> counter{0};
    std::atomic<int> bad{0};
    constexpr int kPhases = 300;
    backend("direct").spmd(np, [&](Comm& comm) {
      for (int phase = 0; phase < kPhases; ++phase) {
        ++counter;
        comm.barrier();
        if (counter.load() != (phase + 1) * np) ++bad;
        comm.barrier();
      }
    });
    EXPECT_EQ(bad.load(), 0) << "np " << np;
  }
}

TEST(ShmTeam, AllreduceAllOpsBothTypes) {
  for (int np : {1, 2, 3, 4}) {
    std::atomic<int> bad{0};
    backend("staged").spmd(np, [&](Comm& comm) {
      const int r = comm.rank();
      for (int round = 0; round < 50; ++round) {
        std::vector<double> d = {double(r), double(-r), 0.5 * r + round};
        std::vector<double> dmax(d), dsum(d);
        comm.allreduce(d.data(), 3, Reduce::kMin);
        comm.allreduce(dmax.data(), 3, Reduce::kMax);
        comm.allreduce(dsum.data(), 3, Reduce::kSum);
        const double s = np * (np - 1) / 2.0;
        if (d[0] != 0 || d[1] != -(np - 1) || d[2] != round) ++bad;
        if (dmax[0] != np - 1 || dmax[1] != 0 || dmax[2] != 0.5 * (np - 1) + round) ++bad;
        if (dsum[0] != s || dsum[1] != -s || dsum[2] != 0.5 * s + round * np) ++bad;
        const std::int64_t v = (r + 1) * 1000 + round;
        if (comm.allreduce(v, Reduce::kMin) != 1000 + round) ++bad;
        if (comm.allreduce(v, Reduce::kMax) != np * 1000 + round) ++bad;
        if (comm.allreduce(v, Reduce::kSum) != 1000 * np * (np + 1) / 2 + round * np) ++bad;
      }
    });
    EXPECT_EQ(bad.load(), 0) << "np " << np;
  }
}

TEST(ShmTeam, BodyThrowingOnOneThreadComesOutOfSpmd) {
  for (const auto& scheme : kSchemes)
    for (int np : {3, 4}) {
      std::atomic<int> finished{0};
      try {
        backend(scheme).spmd(np, [&](Comm& comm) {
          if (comm.rank() == 2) throw std::runtime_error("thread 2 failed");
          comm.barrier();  // would hang without the team's abort
          ++finished;
        });
        ADD_FAILURE() << "no exception";
      } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "thread 2 failed");
      }
      EXPECT_EQ(finished.load(), 0);
    }
}

TEST(ShmTeam, FirstOfSeveralExceptionsIsRethrownAsItsType) {
  EXPECT_THROW(backend("direct").spmd(4,
                                      [](Comm& comm) {
                                        comm.barrier();
                                        throw UsageError("everyone fails");
                                      }),
               UsageError);
}

TEST(ShmTeam, FailureInsideAnOperationAbortsTheOthers) {
  // Thread 1 throws between two runs; the others wait inside the op for it and must wake up.
  for (const auto& scheme : kSchemes)
    for (OpKind op : all_ops()) {
      if (!bind_op(backend(scheme), op)) continue;  // not in this scheme's op table
      const Args args = make_args(op, 4, op_moves_data(op) ? 4096 : 0);
      const OpFactory factory = bind_op(backend(scheme), op);
      if (!factory) continue;    // staged has no one-sided ops
      std::size_t elems = 4096;  // a one-sided window holds 64 blocks
      for (int r = 0; r < 4; ++r)
        elems = std::max({elems, send_count(args, r), recv_count(args, r)});
      std::vector<std::vector<Elem>> mem(8, std::vector<Elem>(elems));
      EXPECT_THROW(backend(scheme).spmd(4,
                                        [&](Comm& comm) {
                                          const int r = comm.rank();
                                          Buffers b{mem[2 * r].data(), send_count(args, r),
                                                    mem[2 * r + 1].data(), recv_count(args, r)};
                                          auto inst = factory(comm, args, b);
                                          for (int i = 0; i < 50; ++i) {
                                            if (r == 1 && i == 10) throw RuntimeError("boom");
                                            inst->run();
                                          }
                                          comm.barrier();
                                        }),
                   RuntimeError)
          << scheme << " " << op_name(op);
    }
}

// A backend whose op factory throws on thread 2 only, delegating everything else to shm.
class FailingFactoryBackend final : public Backend {
 public:
  explicit FailingFactoryBackend(Backend& inner, int failing_rank)
      : inner_(inner), failing_rank_(failing_rank) {}
  std::string label() const override { return inner_.label(); }
  Participants participants() const override { return inner_.participants(); }
  OpTable ops() const override {
    OpTable table = inner_.ops();
    const int failing = failing_rank_;
    for (OpEntry& entry : table)
      entry.make = [real = entry.make, failing](Comm& comm, const Args& args, Buffers& bufs) {
        if (comm.rank() == failing) throw RuntimeError("factory failed on one thread");
        return real(comm, args, bufs);
      };
    return table;
  }
  int max_participants() const override { return inner_.max_participants(); }
  void spmd(const Group& group, const std::function<void(Comm&)>& body) override {
    inner_.spmd(group, body);
  }

 private:
  Backend& inner_;
  int failing_rank_;
};

TEST(ShmTeam, FactoryThrowingOnOneThreadThroughMeasurePoint) {
  const Pinning pinning(BindPolicy::kNone);
  for (const auto& scheme : kSchemes)
    for (int failing : {0, 2})
      for (OpKind op : all_ops()) {
        if (!bind_op(backend(scheme), op)) continue;  // not in this scheme's op table
        FailingFactoryBackend b(backend(scheme), failing);
        const Args args = make_args(op, 4, op_moves_data(op) ? 64 : 0);
        MeasureOptions o;
        o.iterations = 5;
        o.repetitions = 1;
        try {
          measure_point(b, args, o, pinning);
          ADD_FAILURE() << "no exception";
        } catch (const RuntimeError& e) {
          EXPECT_STREQ(e.what(), "factory failed on one thread");
        }
      }
  // The backend still works afterwards.
  const PointResult r = measure_point(backend("direct"), make_args(OpKind::kBroadcast, 4, 64),
                                      MeasureOptions{}, pinning);
  EXPECT_EQ(r.wrong, 0);
}

TEST(ShmTeam, NestedSpmdIsARuntimeErrorNotADeadlock) {
  EXPECT_THROW(backend("direct").spmd(2,
                                      [](Comm& comm) {
                                        if (comm.rank() == 0)
                                          backend("staged").spmd(2, [](Comm&) {});
                                        comm.barrier();
                                      }),
               RuntimeError);
}

TEST(ShmTeam, OtherWorldRanksWouldReturnAtOnceAndNpIsChecked) {
  EXPECT_THROW(backend("direct").spmd(0, [](Comm&) {}), UsageError);
  EXPECT_THROW(backend("direct").spmd(100000, [](Comm&) {}), UsageError);
}

TEST(ShmFamily, DefaultsToBothSchemes) {
  auto family = make_shm_family();
  EXPECT_EQ(family->name(), "shm");
  EXPECT_FALSE(family->needs_processes());
  CLI::App app;
  family->add_options(app);
  app.parse(std::vector<std::string>{});
  family->validate();
  auto backends = family->create();
  ASSERT_EQ(backends.size(), 2u);
  EXPECT_EQ(backends[0]->label(), "shm-staged");
  EXPECT_EQ(backends[1]->label(), "shm-direct");
  for (const auto& b : backends) {
    EXPECT_EQ(b->participants(), Participants::kThreads);
    EXPECT_GE(b->max_participants(), 1024);
    // Every op but pingpong-nb (threads have no non-blocking send to post); stream-bw and the
    // one-sided ops under the direct scheme only.
    for (OpKind op : all_ops())
      EXPECT_EQ(static_cast<bool>(bind_op(*b, op)),
                op != OpKind::kPingpongNb &&
                    ((op != OpKind::kStreamBw && !op_descriptor(op).one_sided()) ||
                     b->label() == "shm-direct"))
          << b->label() << " " << op_name(op);
    const auto ctx = b->context();
    EXPECT_EQ(ctx.at("threads"), "OpenMP");
    EXPECT_EQ(ctx.at("openmp_version"), _OPENMP);
    EXPECT_EQ("shm-" + ctx.at("scheme").get<std::string>(), b->label());
  }
}

TEST(ShmFamily, SchemeOptionSelectsAndOrders) {
  auto family = make_shm_family();
  CLI::App app;
  family->add_options(app);
  app.parse("--scheme=direct,staged", false);
  family->validate();
  auto backends = family->create();
  ASSERT_EQ(backends.size(), 2u);
  EXPECT_EQ(backends[0]->label(), "shm-direct");
  EXPECT_EQ(backends[1]->label(), "shm-staged");

  auto only = make_shm_family();
  CLI::App app2;
  only->add_options(app2);
  app2.parse("--scheme direct", false);
  auto one = only->create();
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0]->label(), "shm-direct");
}

TEST(ShmFamily, UnknownSchemeIsAUsageError) {
  auto family = make_shm_family();
  CLI::App app;
  family->add_options(app);
  app.parse("--scheme=staged,fast", false);
  try {
    family->validate();
    ADD_FAILURE() << "no exception";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("'fast'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace comops
