// mpi allgather: MPI_Allgather, each rank's block into block rank of every receive buffer.
#include "comops/mpi/block_collective.hpp"
#include "comops/mpi/ops.hpp"

namespace comops::mpi {

namespace {

std::unique_ptr<OpInstance> make_allgather(Comm& comm, const Args& args, Buffers& bufs) {
  return std::make_unique<BlockExchange<MPI_Allgather>>(comm, args, bufs);
}

}  // namespace

OpTable allgather_ops() { return op_entries({OpKind::kAllgather}, make_allgather); }

}  // namespace comops::mpi
