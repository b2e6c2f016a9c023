// What the hybrid op files share: the op base class (the participant's node team, its peers'
// buffers, the leaders' communicator), the MPI datatypes that name a node's buffers for its
// leader, and the op table. Ordering: a node barrier (shm::Team, release/acquire on flags in a
// window) comes between a buffer's writer and its readers, whether the writer stored into it
// with loads and stores or an MPI call of the leader did.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <optional>
#include <vector>

#include "comops/hybrid/hybrid_comm.hpp"
#include "comops/op.hpp"
#include "comops/shm/team.hpp"

namespace comops::hybrid {

/// The ops the hybrid backend implements: generated from its subset of COMOPS_OPS, named in
/// comops/hybrid/CMakeLists.txt.
OpTable op_table();

/// An MPI datatype this participant owns (committed, freed with it).
class OwnedType {
 public:
  OwnedType() = default;
  explicit OwnedType(MPI_Datatype type);
  ~OwnedType();
  OwnedType(const OwnedType&) = delete;
  OwnedType& operator=(const OwnedType&) = delete;
  OwnedType(OwnedType&& o) noexcept : type_(o.type_) { o.type_ = MPI_DATATYPE_NULL; }
  OwnedType& operator=(OwnedType&& o) noexcept;
  MPI_Datatype get() const { return type_; }

 private:
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

/// count elements at each of `blocks` (absolute addresses in this process: use with MPI_BOTTOM),
/// in order: how a leader hands its node's buffers to MPI without copying them.
OwnedType blocks_at(const std::vector<const Elem*>& blocks, std::size_t count);

/// One message block of count elements (the unit of MPI_Gatherv/Scatterv counts).
OwnedType block_of(std::size_t count);

/// Participant 0's side of a gather or scatter between the leaders: node k's blocks travel as one
/// run, counts()[k] blocks at block displs()[k] of participant 0's buffer, through a staging vector
/// in node order where the nodes' ranks are not runs of consecutive ranks (MPI placed ranks
/// round-robin over the nodes).
class RootBlocks {
 public:
  RootBlocks(const HybridComm& comm, std::size_t count);
  const int* counts() const { return counts_.data(); }
  const int* displs() const { return displs_.data(); }
  /// Where MPI receives a gather whose blocks go to `recv`: recv itself or the staging vector.
  Elem* gather_target(Elem* recv) { return staging_.empty() ? recv : staging_.data(); }
  /// After the gather: the staged blocks to their ranks' places in recv.
  void gathered(Elem* recv) const;
  /// Where MPI sends a scatter of `send` from: send itself or its blocks staged in node order.
  const Elem* scatter_source(const Elem* send);

 private:
  std::size_t count_;
  std::vector<int> counts_, displs_;
  const std::vector<int>& order_;  // point ranks in node order
  std::vector<Elem> staging_;      // empty when order_ is the identity
};

/// This node rank's share of reducing its node's send buffers element-wise (max or sum) into one
/// vector of the node: a slice (reduce_scatter_block of the count over the node's ranks).
class NodeSlice {
 public:
  NodeSlice(const std::vector<shm::Peer>& peers, const Args& args, int node_rank);
  /// dst[slice] = the reduction of the node's send buffers over this rank's slice.
  void reduce_into(Elem* dst) const;

 private:
  ScatterBlock slice_;
  OpKind op_;
  std::vector<const Elem*> srcs_;  // every node peer's send buffer at the slice
};

/// Base of the hybrid ops: the node's team and this participant's place in it, every node peer's
/// buffers (after the constructor, collective over the node), the point's arguments and buffers.
class HybridOp : public OpInstance {
 protected:
  HybridOp(Comm& comm, const Args& args, const Buffers& bufs);

  /// Every participant of this node waits for the others (release/acquire).
  void node_barrier() { team_.barrier(node_rank_); }
  /// Its node's leader's buffers, as this participant addresses them.
  const shm::Peer& leader_buffers() const { return peers_[0]; }

  HybridComm& comm_;
  shm::Team& team_;
  const int node_rank_;
  const int node_size_;
  const bool leader_;
  const bool root_node_;    ///< this participant's node holds participant 0
  const MPI_Comm leaders_;  ///< MPI_COMM_NULL on a participant that leads no node
  const Args args_;
  const Buffers bufs_;
  std::vector<shm::Peer> peers_;  ///< node peer i's buffers
};

/// Base of gather and scatter: each leader's datatype of its node's buffers (the send buffers for
/// a gather, the receive buffers for a scatter), the block type, participant 0's RootBlocks.
class NodeBlocksOp : public HybridOp {
 protected:
  enum class Side { kSend, kRecv };
  NodeBlocksOp(Comm& comm, const Args& args, const Buffers& bufs, Side side);

  OwnedType block_;                 ///< one block of args.count elements
  OwnedType node_blocks_;           ///< a leader's: its node's blocks, with MPI_BOTTOM
  std::optional<RootBlocks> root_;  ///< participant 0's
};

}  // namespace comops::hybrid
