// mpi gather: MPI_Gather of each rank's block into the root's receive buffer.
#include "comops/mpi/block_collective.hpp"
#include "comops/mpi/ops.hpp"

namespace comops::mpi {

namespace {

std::unique_ptr<OpInstance> make_gather(Comm& comm, const Args& args, Buffers& bufs) {
  return std::make_unique<BlockCollective<MPI_Gather>>(comm, args, bufs);
}

}  // namespace

OpTable gather_ops() { return op_entries({OpKind::kGather}, make_gather); }

}  // namespace comops::mpi
