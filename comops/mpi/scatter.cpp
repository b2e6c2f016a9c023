// mpi scatter: MPI_Scatter of the root's send buffer, one block to each rank's receive buffer.
#include "comops/mpi/block_collective.hpp"
#include "comops/mpi/ops.hpp"

namespace comops::mpi {

OpTable scatter_ops() {
  return op_entries({OpKind::kScatter}, make_op<BlockCollective<MPI_Scatter>>);
}

}  // namespace comops::mpi
