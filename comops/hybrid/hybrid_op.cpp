// The hybrid ops' base (a node's team and peers) and the datatypes that name a node's buffers.
#include "comops/hybrid/hybrid_op.hpp"

#include <utility>

#include "comops/shm/shm_op.hpp"

namespace comops::hybrid {

OwnedType::OwnedType(MPI_Datatype type) : type_(type) { MPI_Type_commit(&type_); }

OwnedType::~OwnedType() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (type_ != MPI_DATATYPE_NULL && !finalized) MPI_Type_free(&type_);
}

OwnedType& OwnedType::operator=(OwnedType&& o) noexcept {
  std::swap(type_, o.type_);
  return *this;
}

OwnedType blocks_at(const std::vector<const Elem*>& blocks, std::size_t count) {
  const int bytes = mpi::mpi_count(count * kElemBytes);
  std::vector<int> lengths(blocks.size(), bytes);
  std::vector<MPI_Aint> at(blocks.size());
  for (std::size_t i = 0; i < blocks.size(); ++i) MPI_Get_address(blocks[i], &at[i]);
  MPI_Datatype type = MPI_DATATYPE_NULL;
  MPI_Type_create_hindexed(static_cast<int>(blocks.size()), lengths.data(), at.data(), MPI_BYTE,
                           &type);
  return OwnedType(type);
}

OwnedType block_of(std::size_t count) {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(mpi::mpi_count(count * kElemBytes), MPI_BYTE, &type);
  return OwnedType(type);
}

RootBlocks::RootBlocks(const HybridComm& comm, std::size_t count)
    : count_(count), counts_(comm.node_sizes()), order_(comm.node_order()) {
  int at = 0;
  for (int n : counts_) {
    displs_.push_back(at);
    at += n;
  }
  for (std::size_t i = 0; i < order_.size(); ++i)
    if (order_[i] != static_cast<int>(i)) {
      staging_.resize(order_.size() * count);
      break;
    }
}

void RootBlocks::gathered(Elem* recv) const {
  if (staging_.empty()) return;
  for (std::size_t i = 0; i < order_.size(); ++i)
    shm::copy_elems(recv + static_cast<std::size_t>(order_[i]) * count_,
                    staging_.data() + i * count_, count_);
}

const Elem* RootBlocks::scatter_source(const Elem* send) {
  if (staging_.empty()) return send;
  for (std::size_t i = 0; i < order_.size(); ++i)
    shm::copy_elems(staging_.data() + i * count_,
                    send + static_cast<std::size_t>(order_[i]) * count_, count_);
  return staging_.data();
}

NodeSlice::NodeSlice(const std::vector<shm::Peer>& peers, const Args& args, int node_rank)
    : slice_(reduce_scatter_block(args.count, static_cast<int>(peers.size()), node_rank)),
      op_(args.op) {
  for (const shm::Peer& p : peers) srcs_.push_back(p.send + slice_.offset);
}

void NodeSlice::reduce_into(Elem* dst) const {
  if (slice_.count == 0) return;
  shm::reduce_into(dst + slice_.offset, srcs_.data(), static_cast<int>(srcs_.size()), slice_.count,
                   op_);
}

HybridOp::HybridOp(Comm& comm, const Args& args, const Buffers& bufs)
    : comm_(hybrid_comm(comm)),
      team_(comm_.team()),
      node_rank_(comm_.node_rank()),
      node_size_(comm_.node_size()),
      leader_(comm_.leader()),
      root_node_(comm_.node() == 0),
      leaders_(comm_.leaders()),
      args_(args),
      bufs_(bufs),
      peers_(team_.exchange_peers(node_rank_, shm::Peer{bufs.send, bufs.recv})) {}

NodeBlocksOp::NodeBlocksOp(Comm& comm, const Args& args, const Buffers& bufs, Side side)
    : HybridOp(comm, args, bufs), block_(block_of(args.count)) {
  if (!leader_) return;
  std::vector<const Elem*> blocks;
  for (const shm::Peer& p : peers_) blocks.push_back(side == Side::kSend ? p.send : p.recv);
  node_blocks_ = blocks_at(blocks, args.count);
  if (comm.rank() == 0) root_.emplace(comm_, args.count);
}

}  // namespace comops::hybrid
