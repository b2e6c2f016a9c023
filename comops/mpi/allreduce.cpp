// mpi allreduce: MPI_Allreduce of 64-bit integers with MPI_MAX or MPI_SUM; every participant
// receives the reduced vector.
#include "comops/mpi/mpi_op.hpp"
#include "comops/mpi/ops.hpp"

namespace comops::mpi {
namespace {

class AllreduceOp final : public MpiOp {
 public:
  AllreduceOp(Comm& comm, const Args& args, Buffers& bufs)
      : MpiOp(comm, args, bufs), count_(mpi_count(args.count)), op_(reduction()) {}
  void run() override { MPI_Allreduce(bufs_.send, bufs_.recv, count_, MPI_INT64_T, op_, comm_); }

 private:
  const int count_;
  const MPI_Op op_;
};

}  // namespace

OpTable allreduce_ops() {
  return op_entries({OpKind::kAllreduceMax, OpKind::kAllreduceSum}, make_op<AllreduceOp>);
}

}  // namespace comops::mpi
