// mpi allreduce: MPI_Allreduce of 64-bit integers with MPI_MAX or MPI_SUM; every participant
// receives the reduced vector.
#include <mpi.h>

#include "comops/mpi/ops.hpp"
#include "comops/mpi_common/mpi_comm.hpp"

namespace comops::mpi {
namespace {

class AllreduceOp final : public OpInstance {
 public:
  AllreduceOp(Comm& comm, const Args& args, Buffers& bufs)
      : comm_(handle_of(comm)),
        count_(mpi_count(args.count)),
        op_(reduction_of(args.op) == Reduce::kSum ? MPI_SUM : MPI_MAX),
        bufs_(bufs) {}
  void run() override { MPI_Allreduce(bufs_.send, bufs_.recv, count_, MPI_INT64_T, op_, comm_); }

 private:
  MPI_Comm comm_;
  int count_;
  MPI_Op op_;
  Buffers& bufs_;
};

std::unique_ptr<OpInstance> make_allreduce(Comm& comm, const Args& args, Buffers& bufs) {
  return std::make_unique<AllreduceOp>(comm, args, bufs);
}

}  // namespace

OpTable allreduce_ops() {
  return op_entries({OpKind::kAllreduceMax, OpKind::kAllreduceSum}, make_allreduce);
}

}  // namespace comops::mpi
