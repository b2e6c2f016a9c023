// mpi reduction: MPI_Reduce of 64-bit integers with MPI_MAX (the COMOPS global max) or MPI_SUM.
#include "comops/mpi/mpi_op.hpp"
#include "comops/mpi/ops.hpp"

namespace comops::mpi {
namespace {

class ReduceOp final : public MpiOp {
 public:
  ReduceOp(Comm& comm, const Args& args, Buffers& bufs)
      : MpiOp(comm, args, bufs), count_(mpi_count(args.count)), op_(reduction()) {}
  void run() override {
    MPI_Reduce(bufs_.send, bufs_.recv, count_, MPI_INT64_T, op_, args_.root, comm_);
  }

 private:
  const int count_;
  const MPI_Op op_;
};

}  // namespace

OpTable reduce_ops() {
  return op_entries({OpKind::kReduceMax, OpKind::kReduceSum}, make_op<ReduceOp>);
}

}  // namespace comops::mpi
