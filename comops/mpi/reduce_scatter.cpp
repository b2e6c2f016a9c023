// mpi reduce-scatter: MPI_Reduce_scatter of 64-bit integers with MPI_MAX or MPI_SUM; participant
// i receives block i of the reduced vector, split as osu_reduce_scatter splits it
// (reduce_scatter_block in comops/op.hpp).
#include <vector>

#include "comops/mpi/mpi_op.hpp"
#include "comops/mpi/ops.hpp"

namespace comops::mpi {
namespace {

class ReduceScatterOp final : public MpiOp {
 public:
  ReduceScatterOp(Comm& comm, const Args& args, Buffers& bufs)
      : MpiOp(comm, args, bufs), op_(reduction()) {
    for (int r = 0; r < args.np; ++r)
      counts_.push_back(mpi_count(reduce_scatter_block(args.count, args.np, r).count));
  }
  void run() override {
    MPI_Reduce_scatter(bufs_.send, bufs_.recv, counts_.data(), MPI_INT64_T, op_, comm_);
  }

 private:
  const MPI_Op op_;
  std::vector<int> counts_;  // recvcounts: every participant's block
};

}  // namespace

OpTable reduce_scatter_ops() {
  return op_entries({OpKind::kReduceScatterMax, OpKind::kReduceScatterSum},
                    make_op<ReduceScatterOp>);
}

}  // namespace comops::mpi
