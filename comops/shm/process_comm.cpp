// A process team's Comm: MPI reductions on the node's communicator, buffers in a shared window.
#include "comops/shm/process_comm.hpp"

#include <algorithm>
#include <cstring>
#include <exception>
#include <vector>

#include "comops/mpi_common/mpi_comm.hpp"

namespace comops::shm {
namespace {

std::uint64_t page_bytes_of(std::size_t count) {
  const std::size_t bytes = std::max<std::size_t>(count * kElemBytes, kElemBytes);
  return (bytes + kPageBytes - 1) / kPageBytes * kPageBytes;
}

}  // namespace

NodeComm::NodeComm(MPI_Comm participants) {
  int rank = 0, size = 0;
  MPI_Comm_rank(participants, &rank);
  MPI_Comm_size(participants, &size);
  MPI_Comm_split_type(participants, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node_);
  int node_size = 0;
  MPI_Comm_size(node_, &node_size);
  int spans = node_size == size ? 0 : 1;
  MPI_Allreduce(MPI_IN_PLACE, &spans, 1, MPI_INT, MPI_MAX, participants);
  if (spans != 0) {
    MPI_Comm_free(&node_);
    throw AgreedError(
        "shmp: the participants of a point span several nodes; a process team "
        "shares one node's memory");
  }
  MPI_Comm_rank(node_, &rank_);
  MPI_Comm_set_errhandler(node_, MPI_ERRORS_RETURN);
}

// Not while an exception unwinds (a failure that ends the job or the run): freeing a
// communicator is collective.
NodeComm::~NodeComm() {
  if (node_ != MPI_COMM_NULL && std::uncaught_exceptions() == 0) MPI_Comm_free(&node_);
}

void ProcessComm::allreduce(double* values, int n, Reduce op) {
  MPI_Allreduce(MPI_IN_PLACE, values, n, MPI_DOUBLE, mpi::to_mpi(op), node_);
}

void ProcessComm::allreduce(std::int64_t* values, int n, Reduce op) {
  MPI_Allreduce(MPI_IN_PLACE, values, n, MPI_INT64_T, mpi::to_mpi(op), node_);
}

BufferSpace allocate_node_buffers(Space& space, MPI_Comm node, std::size_t send_count,
                                  std::size_t recv_count) {
  int rank = 0, size = 0;
  MPI_Comm_rank(node, &rank);
  MPI_Comm_size(node, &size);
  const std::uint64_t send_bytes = page_bytes_of(send_count);
  const std::uint64_t mine = send_bytes + page_bytes_of(recv_count);
  std::vector<std::uint64_t> all(static_cast<std::size_t>(size));
  MPI_Allgather(&mine, 1, MPI_UINT64_T, all.data(), 1, MPI_UINT64_T, node);
  std::uint64_t offset = 0, total = 0;
  for (int r = 0; r < size; ++r) {
    if (r < rank) offset += all[static_cast<std::size_t>(r)];
    total += all[static_cast<std::size_t>(r)];
  }
  BufferSpace out{space.allocate(total)};
  char* at = static_cast<char*>(out.owner.get()) + offset;
  std::memset(at, 0, mine);
  out.send = reinterpret_cast<Elem*>(at);
  out.recv = reinterpret_cast<Elem*>(at + send_bytes);
  return out;
}

BufferSpace ProcessComm::allocate_buffers(std::size_t send_count, std::size_t recv_count) {
  return allocate_node_buffers(space_, node_, send_count, recv_count);
}

}  // namespace comops::shm
