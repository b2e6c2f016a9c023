// A participant of the hybrid backend: the point's MPI communicator (an MpiComm, so mpi ops run on
// it), its node's communicator with a process team sharing MPI-3 windows, the leaders'
// communicator (node rank 0 of every node) and where each node's participants sit in the point.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "comops/mpi_common/mpi_comm.hpp"
#include "comops/shm/process_space.hpp"
#include "comops/shm/shared_block.hpp"
#include "comops/shm/team.hpp"

namespace comops::hybrid {

/// A communicator this participant made and frees (collectively, not while an exception unwinds:
/// a failure that ends the job or the point leaves it to the job's end).
class OwnedComm {
 public:
  OwnedComm() = default;
  explicit OwnedComm(MPI_Comm comm) : comm_(comm) {}
  ~OwnedComm();
  OwnedComm(const OwnedComm&) = delete;
  OwnedComm& operator=(const OwnedComm&) = delete;
  MPI_Comm get() const { return comm_; }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
};

/// The windows of one node's ProcessSpace, agreed over the whole point: a window one node cannot
/// have is an AgreedError on every participant of every node (each node's leader then calls no
/// MPI collective the others wait in). Every participant allocates the same number of blocks in
/// the same order (the team's state, the buffers, an op's shared state).
class AgreedSpace final : public shm::Space {
 public:
  AgreedSpace(shm::ProcessSpace& node_space, MPI_Comm point)
      : node_space_(node_space), point_(point) {}
  bool one_process() const override { return false; }
  std::shared_ptr<void> allocate(std::size_t bytes) override;
  shm::SharedRef ref(const void* p) const override { return node_space_.ref(p); }
  void* at(const shm::SharedRef& r) const override { return node_space_.at(r); }
  void sync() override { node_space_.sync(); }
  void set_up_barrier() override { node_space_.set_up_barrier(); }

 private:
  shm::ProcessSpace& node_space_;
  MPI_Comm point_;
};

/// One participant of a hybrid point. Nodes: the processes MPI sees sharing memory
/// (MPI_Comm_split_type MPI_COMM_TYPE_SHARED), or with node_size > 0 runs of node_size consecutive
/// ranks of those; a node's ranks in point order, its rank 0 (lowest point rank) its leader;
/// participant 0 leads node 0. Collective over `point`.
class HybridComm final : public mpi::MpiComm {
 public:
  /// point: the participants' communicator; node_size: --hybrid-node-size (0: MPI's nodes);
  /// window_max: --hybrid-window-max in bytes.
  HybridComm(MPI_Comm point, int node_size, std::size_t window_max);

  /// Every participant's buffers in one window of its node (shm::allocate_node_buffers), agreed
  /// over the point.
  BufferSpace allocate_buffers(std::size_t send_count, std::size_t recv_count) override;

  int node_rank() const { return node_rank_; }
  int node_size() const { return team_->size(); }
  bool leader() const { return node_rank_ == 0; }
  /// Node index of this participant (its leader's rank in leaders()).
  int node() const { return node_; }
  int nodes() const { return static_cast<int>(node_sizes_.size()); }
  /// The leaders' communicator (rank k leads node k); MPI_COMM_NULL on the others.
  MPI_Comm leaders() const { return leaders_.get(); }
  shm::Team& team() const { return *team_; }
  /// Participants of each node, nodes in leader order.
  const std::vector<int>& node_sizes() const { return node_sizes_; }
  /// The point ranks node by node (node 0's in order, then node 1's, ...): the identity when
  /// every node is a run of consecutive ranks.
  const std::vector<int>& node_order() const { return node_order_; }

 private:
  OwnedComm node_comm_;
  int node_rank_;
  OwnedComm leaders_;
  int node_ = 0;
  std::vector<int> node_sizes_;
  std::vector<int> node_order_;
  std::unique_ptr<shm::ProcessSpace> node_space_;
  std::unique_ptr<AgreedSpace> space_;
  std::unique_ptr<shm::Team> team_;
};

/// The HybridComm behind comm; throws RuntimeError when it is not one (an op built outside spmd).
HybridComm& hybrid_comm(Comm& comm);

}  // namespace comops::hybrid
