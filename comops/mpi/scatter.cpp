// mpi scatter: MPI_Scatter of the root's send buffer, one block to each rank's receive buffer.
#include "comops/mpi/block_collective.hpp"
#include "comops/mpi/ops.hpp"

namespace comops::mpi {

std::unique_ptr<OpInstance> make_scatter(Comm& comm, const Args& args, Buffers& bufs) {
  return std::make_unique<BlockCollective<MPI_Scatter>>(comm, args, bufs);
}

}  // namespace comops::mpi
