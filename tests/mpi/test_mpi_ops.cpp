// The mpi backend through measure_point: every op, several sizes, every np up to the world size,
// zero wrong; fault injection found; a stream-bw message received into the wrong window slot
// found; a failed allocation agreed by every rank, not a hang.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "comops/mpi/backend.hpp"
#include "comops/mpi_common/mpi_comm.hpp"
#include "comops/rma.hpp"
#include "harness/measure/measure.hpp"
#include "harness/ops/op_queries.hpp"
#include "tests/mpi_world.hpp"
#include "tests/op_test_util.hpp"

namespace comops {
namespace {

using test::point;
using test::quick;
using test::world_rank;
using test::world_size;

std::unique_ptr<Backend> mpi_backend() {
  auto backends = make_mpi_family()->create();
  return std::move(backends.front());
}

class MpiOps : public testing::TestWithParam<OpKind> {};

TEST_P(MpiOps, EveryNpAndSizeIsExact) {
  auto backend = mpi_backend();
  Pinning pinning(BindPolicy::kCompact);
  for (int np = op_min_np(GetParam()); np <= world_size(); ++np) {
    std::vector<std::size_t> sizes = op_moves_data(GetParam())
                                         ? std::vector<std::size_t>{8, 24, 1024, 65544, 819200}
                                         : std::vector<std::size_t>{0};
    // A window of 64 one-sided operations moves 64 x size per call: 800 KiB would take 50 MiB
    // a call, minutes at np 4 on two cores, and tests nothing 64 KiB does not.
    if (is_rma(GetParam()) && rma_shape(GetParam(), 0).window > 1) sizes.pop_back();
    for (std::size_t b : sizes) {
      const PointResult r = measure_point(*backend, point(GetParam(), np, b), quick(), pinning);
      if (world_rank() != 0) continue;
      EXPECT_EQ(r.wrong, 0) << op_name(GetParam()) << " np=" << np << " bytes=" << b;
      EXPECT_EQ(r.backend, "mpi");
      EXPECT_EQ(r.iterations, 3);
      EXPECT_EQ(r.repetitions, 2);
      EXPECT_EQ(r.rep_max_us.size(), 2u);
      ASSERT_EQ(r.cores.size(), static_cast<std::size_t>(np));
      for (int c : r.cores) EXPECT_GE(c, 0);
    }
  }
}

// --sync=barrier: a barrier before each call; every result still exact, and rank 0 has the
// per-call percentiles in order.
TEST_P(MpiOps, BarrierSyncIsExactWithPercentiles) {
  auto backend = mpi_backend();
  Pinning pinning(BindPolicy::kCompact);
  MeasureOptions o = quick();
  o.sync = Sync::kBarrier;
  const int np = std::max(op_min_np(GetParam()), world_size());
  const std::vector<std::size_t> sizes =
      op_moves_data(GetParam()) ? std::vector<std::size_t>{8, 65544} : std::vector<std::size_t>{0};
  for (std::size_t b : sizes) {
    const PointResult r = measure_point(*backend, point(GetParam(), np, b), o, pinning);
    if (world_rank() != 0) continue;
    EXPECT_EQ(r.wrong, 0) << op_name(GetParam()) << " bytes=" << b;
    ASSERT_TRUE(r.percentiles_us.has_value()) << op_name(GetParam()) << " bytes=" << b;
    EXPECT_GT(r.percentiles_us->p50, 0);
    EXPECT_LE(r.percentiles_us->p50, r.percentiles_us->p90);
    EXPECT_LE(r.percentiles_us->p90, r.percentiles_us->p99);
    EXPECT_LE(r.percentiles_us->p99, r.percentiles_us->max);
    EXPECT_LE(r.time_max_us, r.percentiles_us->max);
  }
  if (op_moves_data(GetParam())) {  // the checker still fails under this mode
    o.inject_fault = true;
    const PointResult f = measure_point(*backend, point(GetParam(), np, 1024), o, pinning);
    if (world_rank() == 0) {
      EXPECT_EQ(f.wrong, 1) << op_name(GetParam());
    }
  }
}

std::string param_name(const testing::TestParamInfo<OpKind>& info) {
  std::string n(op_name(info.param));
  for (auto& ch : n)
    if (ch == '-') ch = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(AllOps, MpiOps, testing::ValuesIn(all_ops()), param_name);

// The ops that move data (not barrier): only those can deliver a wrong element.
std::vector<OpKind> data_ops() {
  std::vector<OpKind> out;
  for (OpKind op : all_ops())
    if (op_moves_data(op)) out.push_back(op);
  return out;
}

class MpiDataOps : public testing::TestWithParam<OpKind> {};

TEST_P(MpiDataOps, InjectedFaultIsFound) {
  auto backend = mpi_backend();
  Pinning pinning(BindPolicy::kCompact);
  const PointResult r =
      measure_point(*backend, point(GetParam(), world_size(), 1024), quick(true), pinning);
  if (world_rank() == 0) {
    EXPECT_EQ(r.wrong, 1);
  }
}

INSTANTIATE_TEST_SUITE_P(DataOps, MpiDataOps, testing::ValuesIn(data_ops()), param_name);

TEST(MpiBackend, RanksOutsideThePointReturnAtOnce) {
  auto backend = mpi_backend();
  Pinning pinning(BindPolicy::kNone);
  const PointResult r = measure_point(*backend, point(OpKind::kPingpong, 2, 64), quick(), pinning);
  if (world_rank() == 0) {
    EXPECT_EQ(r.wrong, 0);
    EXPECT_EQ(r.cores, (std::vector<int>{-1, -1}));
  }
  if (world_rank() >= 2) {
    EXPECT_TRUE(r.rep_max_us.empty());
  }
}

TEST(MpiBackend, FailedAllocationIsAgreedByEveryRank) {
  auto backend = mpi_backend();
  Pinning pinning(BindPolicy::kNone);
  // 2^50 bytes per buffer: no machine here can allocate it, so every participant throws.
  EXPECT_THROW(
      measure_point(*backend, point(OpKind::kBroadcast, world_size(), std::size_t{1} << 50),
                    quick(), pinning),
      RuntimeError);
}

// The mpi backend, but its stream-bw receives the window's messages into the slots in reverse
// order: every message arrives whole and in time, only in the wrong slot.
class ReversedSlotsBackend final : public Backend {
 public:
  ReversedSlotsBackend() : mpi_(mpi_backend()) {}
  std::string label() const override { return mpi_->label(); }
  Participants participants() const override { return mpi_->participants(); }
  int max_participants() const override { return mpi_->max_participants(); }
  void spmd(const Group& group, const std::function<void(Comm&)>& body) override {
    mpi_->spmd(group, body);
  }
  OpTable ops() const override {
    return {{OpKind::kStreamBw, [](Comm& comm, const Args& args, Buffers& bufs) {
               return std::unique_ptr<OpInstance>(std::make_unique<Reversed>(comm, args, bufs));
             }}};
  }

 private:
  class Reversed final : public OpInstance {
   public:
    Reversed(Comm& comm, const Args& args, Buffers& bufs)
        : comm_(mpi::handle_of(comm)), rank_(comm.rank()), args_(args), bufs_(bufs) {}
    void run() override {
      const int w = args_.window, bytes = static_cast<int>(args_.bytes);
      std::vector<MPI_Request> req(static_cast<std::size_t>(w));
      for (int k = 0; k < w && rank_ < 2; ++k) {
        const std::size_t slot = static_cast<std::size_t>(rank_ == 0 ? k : w - 1 - k);
        if (rank_ == 0)
          MPI_Isend(bufs_.send + slot * args_.count, bytes, MPI_BYTE, 1, 0, comm_, &req[k]);
        else
          MPI_Irecv(bufs_.recv + slot * args_.count, bytes, MPI_BYTE, 0, 0, comm_, &req[k]);
      }
      if (rank_ < 2) MPI_Waitall(w, req.data(), MPI_STATUSES_IGNORE);
    }

   private:
    MPI_Comm comm_;
    int rank_;
    Args args_;
    Buffers& bufs_;
  };
  std::unique_ptr<Backend> mpi_;
};

TEST(MpiStreamBw, MessageInTheWrongWindowSlotFailsValidation) {
  ReversedSlotsBackend backend;
  Pinning pinning(BindPolicy::kNone);
  Args a = point(OpKind::kStreamBw, 2, 1024);
  const PointResult r = measure_point(backend, a, quick(), pinning);
  if (world_rank() == 0) {
    // Slots 0,1 and 3,4 swapped, the middle one right: 4 of 5 messages of 128 elements wrong,
    // in each of the validation's calls.
    EXPECT_EQ(r.wrong, kValidationOps * 4 * 128);
  }
  a.window = 1;  // a window of one message has no wrong slot: the same op is then right
  const PointResult one = measure_point(backend, a, quick(), pinning);
  if (world_rank() == 0) {
    EXPECT_EQ(one.wrong, 0);
  }
}

TEST(MpiBackend, MaxParticipantsIsTheWorld) {
  EXPECT_EQ(mpi_backend()->max_participants(), world_size());
}

}  // namespace
}  // namespace comops
