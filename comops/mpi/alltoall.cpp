// mpi alltoall: MPI_Alltoall, block j of each rank's send buffer to rank j's receive buffer.
#include "comops/mpi/block_collective.hpp"
#include "comops/mpi/ops.hpp"

namespace comops::mpi {

OpTable alltoall_ops() {
  return op_entries({OpKind::kAlltoall}, make_op<BlockExchange<MPI_Alltoall>>);
}

}  // namespace comops::mpi
