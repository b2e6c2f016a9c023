// A process of a process team as a comops::Comm: the team's shared-memory barrier, reductions
// through MPI on the node's communicator, buffers in one window of the node's processes; and that
// communicator, split from a point's participants.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>

#include "comops/shm/process_space.hpp"
#include "comops/shm/team.hpp"

namespace comops::shm {

/// The participants of a point as one node's communicator (MPI_Comm_split_type with
/// MPI_COMM_TYPE_SHARED, ranks in the participants' order, MPI_ERRORS_RETURN), freed at the end.
/// Collective over `participants`; AgreedError on every participant when they span nodes.
class NodeComm {
 public:
  explicit NodeComm(MPI_Comm participants);
  ~NodeComm();
  NodeComm(const NodeComm&) = delete;
  NodeComm& operator=(const NodeComm&) = delete;
  MPI_Comm handle() const { return node_; }
  int rank() const { return rank_; }

 private:
  MPI_Comm node_ = MPI_COMM_NULL;
  int rank_ = 0;
};

/// Collective over `node` (ranks in the team's order): every rank's send and receive buffers in
/// one block of `space` (one window), each rank's part zeroed by its owner (its pages land on its
/// core's memory); AgreedError when the block cannot be had. Counts in elements.
BufferSpace allocate_node_buffers(Space& space, MPI_Comm node, std::size_t send_count,
                                  std::size_t recv_count);

/// One process of a process team.
class ProcessComm final : public TeamComm {
 public:
  ProcessComm(Team& team, int rank, MPI_Comm node, ProcessSpace& space)
      : TeamComm(team, rank), node_(node), space_(space) {}
  void allreduce(double* values, int n, Reduce op) override;
  void allreduce(std::int64_t* values, int n, Reduce op) override;
  /// Collective: every participant's buffers in one window (rank 0's segment), each zeroed by its
  /// owner (its pages land on its core's memory); AgreedError when the window cannot be had.
  BufferSpace allocate_buffers(std::size_t send_count, std::size_t recv_count) override;

 private:
  MPI_Comm node_;
  ProcessSpace& space_;
};

}  // namespace comops::shm
