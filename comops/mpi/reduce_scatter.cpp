// mpi reduce-scatter: MPI_Reduce_scatter of 64-bit integers with MPI_MAX or MPI_SUM; participant
// i receives block i of the reduced vector, split as osu_reduce_scatter splits it
// (reduce_scatter_block in comops/op.hpp).
#include <mpi.h>

#include <vector>

#include "comops/mpi/ops.hpp"
#include "comops/mpi_common/mpi_comm.hpp"

namespace comops::mpi {
namespace {

class ReduceScatterOp final : public OpInstance {
 public:
  ReduceScatterOp(Comm& comm, const Args& args, Buffers& bufs)
      : comm_(handle_of(comm)),
        op_(reduction_of(args.op) == Reduce::kSum ? MPI_SUM : MPI_MAX),
        bufs_(bufs) {
    for (int r = 0; r < args.np; ++r)
      counts_.push_back(mpi_count(reduce_scatter_block(args.count, args.np, r).count));
  }
  void run() override {
    MPI_Reduce_scatter(bufs_.send, bufs_.recv, counts_.data(), MPI_INT64_T, op_, comm_);
  }

 private:
  MPI_Comm comm_;
  MPI_Op op_;
  std::vector<int> counts_;  // recvcounts: every participant's block
  Buffers& bufs_;
};

std::unique_ptr<OpInstance> make_reduce_scatter(Comm& comm, const Args& args, Buffers& bufs) {
  return std::make_unique<ReduceScatterOp>(comm, args, bufs);
}

}  // namespace

OpTable reduce_scatter_ops() {
  return op_entries({OpKind::kReduceScatterMax, OpKind::kReduceScatterSum}, make_reduce_scatter);
}

}  // namespace comops::mpi
