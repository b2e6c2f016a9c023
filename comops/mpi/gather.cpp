// mpi gather: MPI_Gather of each rank's block into the root's receive buffer.
#include "comops/mpi/block_collective.hpp"
#include "comops/mpi/ops.hpp"

namespace comops::mpi {

OpTable gather_ops() { return op_entries({OpKind::kGather}, make_op<BlockCollective<MPI_Gather>>); }

}  // namespace comops::mpi
