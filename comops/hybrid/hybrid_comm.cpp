// A hybrid participant: the node and leaders' communicators split from the point's, the node's
// process team and windows, the point-wide agreement on windows, and where the nodes' ranks sit.
#include "comops/hybrid/hybrid_comm.hpp"

#include <exception>
#include <string>

#include "comops/shm/process_comm.hpp"

namespace comops::hybrid {
namespace {

// The node of this rank of `point`: MPI's shared-memory node, cut into runs of node_size ranks
// when node_size > 0; ranks in point order. MPI_ERRORS_RETURN, as a ProcessSpace needs.
MPI_Comm split_node(MPI_Comm point, int node_size) {
  int rank = 0;
  MPI_Comm_rank(point, &rank);
  MPI_Comm shared = MPI_COMM_NULL;
  MPI_Comm_split_type(point, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &shared);
  MPI_Comm node = shared;
  if (node_size > 0) {
    int shared_rank = 0;
    MPI_Comm_rank(shared, &shared_rank);
    MPI_Comm_split(shared, shared_rank / node_size, rank, &node);
    MPI_Comm_free(&shared);
  }
  MPI_Comm_set_errhandler(node, MPI_ERRORS_RETURN);
  return node;
}

int rank_in(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

// The leaders' communicator (node rank 0 of every node, in point order); MPI_COMM_NULL elsewhere.
MPI_Comm split_leaders(MPI_Comm point, bool leader) {
  MPI_Comm leaders = MPI_COMM_NULL;
  MPI_Comm_split(point, leader ? 0 : MPI_UNDEFINED, rank_in(point), &leaders);
  return leaders;
}

}  // namespace

OwnedComm::~OwnedComm() {
  if (comm_ != MPI_COMM_NULL && std::uncaught_exceptions() == 0) MPI_Comm_free(&comm_);
}

std::shared_ptr<void> AgreedSpace::allocate(std::size_t bytes) {
  std::shared_ptr<void> block;
  std::string error;
  try {
    block = node_space_.allocate(bytes);
  } catch (const AgreedError& e) {
    error = e.what();  // the whole node has it
  }
  int rank = 0, size = 0;
  MPI_Comm_rank(point_, &rank);
  MPI_Comm_size(point_, &size);
  int first_failed = error.empty() ? size : rank;
  MPI_Allreduce(MPI_IN_PLACE, &first_failed, 1, MPI_INT, MPI_MIN, point_);
  if (first_failed == size) return block;
  block.reset();  // freed by the whole node together (every node rank is here)
  // The first failed rank's reason, everywhere.
  int length = static_cast<int>(error.size());
  MPI_Bcast(&length, 1, MPI_INT, first_failed, point_);
  error.resize(static_cast<std::size_t>(length));
  MPI_Bcast(error.data(), length, MPI_CHAR, first_failed, point_);
  throw AgreedError(error);
}

HybridComm::HybridComm(MPI_Comm point, int node_size, std::size_t window_max)
    : MpiComm(point),
      node_comm_(split_node(point, node_size)),
      node_rank_(rank_in(node_comm_.get())),
      leaders_(split_leaders(point, node_rank_ == 0)) {
  // Every participant learns its leader's point rank; nodes in the order of their leaders.
  int my_leader = rank();
  MPI_Bcast(&my_leader, 1, MPI_INT, 0, node_comm_.get());
  std::vector<int> leader_of(static_cast<std::size_t>(size()));
  MPI_Allgather(&my_leader, 1, MPI_INT, leader_of.data(), 1, MPI_INT, point);
  for (int r = 0; r < size(); ++r) {
    if (leader_of[static_cast<std::size_t>(r)] != r) continue;
    if (r == my_leader) node_ = static_cast<int>(node_sizes_.size());
    int members = 0;
    for (int q = 0; q < size(); ++q)
      if (leader_of[static_cast<std::size_t>(q)] == r) {
        node_order_.push_back(q);
        ++members;
      }
    node_sizes_.push_back(members);
  }
  node_space_ = std::make_unique<shm::ProcessSpace>(node_comm_.get(), window_max, "hybrid");
  space_ = std::make_unique<AgreedSpace>(*node_space_, point);
  int members = 0;
  MPI_Comm_size(node_comm_.get(), &members);
  team_ = std::make_unique<shm::Team>(members, *space_, node_rank_);
}

BufferSpace HybridComm::allocate_buffers(std::size_t send_count, std::size_t recv_count) {
  return shm::allocate_node_buffers(*space_, node_comm_.get(), send_count, recv_count);
}

HybridComm& hybrid_comm(Comm& comm) {
  auto* hc = dynamic_cast<HybridComm*>(&comm);
  if (hc == nullptr) throw RuntimeError("hybrid: an operation was built outside a hybrid point");
  return *hc;
}

}  // namespace comops::hybrid
