// mpi barrier: MPI_Barrier over the participants.
#include "comops/mpi/mpi_op.hpp"
#include "comops/mpi/ops.hpp"

namespace comops::mpi {
namespace {

class Barrier final : public MpiOp {
 public:
  using MpiOp::MpiOp;
  void run() override { MPI_Barrier(comm_); }
};

}  // namespace

OpTable barrier_ops() { return op_entries({OpKind::kBarrier}, make_op<Barrier>); }

}  // namespace comops::mpi
