// mpi alltoall: MPI_Alltoall, block j of each rank's send buffer to rank j's receive buffer.
#include "comops/mpi/block_collective.hpp"
#include "comops/mpi/ops.hpp"

namespace comops::mpi {

namespace {

std::unique_ptr<OpInstance> make_alltoall(Comm& comm, const Args& args, Buffers& bufs) {
  return std::make_unique<BlockExchange<MPI_Alltoall>>(comm, args, bufs);
}

}  // namespace

OpTable alltoall_ops() { return op_entries({OpKind::kAlltoall}, make_alltoall); }

}  // namespace comops::mpi
