// mpi allgather: MPI_Allgather, each rank's block into block rank of every receive buffer.
#include "comops/mpi/block_collective.hpp"
#include "comops/mpi/ops.hpp"

namespace comops::mpi {

OpTable allgather_ops() {
  return op_entries({OpKind::kAllgather}, make_op<BlockExchange<MPI_Allgather>>);
}

}  // namespace comops::mpi
