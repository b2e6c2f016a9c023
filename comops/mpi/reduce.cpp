// mpi reduction: MPI_Reduce of 64-bit integers with MPI_MAX (the COMOPS global max) or MPI_SUM.
#include <mpi.h>

#include "comops/mpi/ops.hpp"
#include "comops/mpi_common/mpi_comm.hpp"

namespace comops::mpi {
namespace {

class ReduceOp final : public OpInstance {
 public:
  ReduceOp(Comm& comm, const Args& args, Buffers& bufs)
      : comm_(handle_of(comm)),
        root_(args.root),
        count_(mpi_count(args.count)),
        op_(reduction_of(args.op) == Reduce::kSum ? MPI_SUM : MPI_MAX),
        bufs_(bufs) {}
  void run() override {
    MPI_Reduce(bufs_.send, bufs_.recv, count_, MPI_INT64_T, op_, root_, comm_);
  }

 private:
  MPI_Comm comm_;
  int root_;
  int count_;
  MPI_Op op_;
  Buffers& bufs_;
};

std::unique_ptr<OpInstance> make_reduce(Comm& comm, const Args& args, Buffers& bufs) {
  return std::make_unique<ReduceOp>(comm, args, bufs);
}

}  // namespace

OpTable reduce_ops() { return op_entries({OpKind::kReduceMax, OpKind::kReduceSum}, make_reduce); }

}  // namespace comops::mpi
