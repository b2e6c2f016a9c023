// mpi scatter: MPI_Scatter of the root's send buffer, one block to each rank's receive buffer.
#include "comops/mpi/block_collective.hpp"
#include "comops/mpi/ops.hpp"

namespace comops::mpi {

namespace {

std::unique_ptr<OpInstance> make_scatter(Comm& comm, const Args& args, Buffers& bufs) {
  return std::make_unique<BlockCollective<MPI_Scatter>>(comm, args, bufs);
}

}  // namespace

OpTable scatter_ops() { return op_entries({OpKind::kScatter}, make_scatter); }

}  // namespace comops::mpi
