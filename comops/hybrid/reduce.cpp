// hybrid reduce (max or sum, root 0): a node barrier (the send buffers are filled); every node
// rank reduces its slice of the node's send buffers into node 0's root receive buffer or, on the
// other nodes, a scratch vector in the node's window; a node barrier (the node's vector is whole);
// the leaders' MPI_Reduce of those vectors into participant 0's receive buffer (in place). A node
// of one rank hands its send buffer to MPI_Reduce as it is.
#include <mpi.h>

#include "comops/hybrid/hybrid_op.hpp"
#include "comops/shm/shm_op.hpp"

namespace comops::hybrid {
namespace {

struct Scratch {
  Scratch(shm::Arena& arena, std::size_t count) : vector(arena, count) {}
  shm::SharedArray vector;  // a node's reduction (not on node 0, whose root receives it)
};

class ReduceOp final : public HybridOp {
 public:
  ReduceOp(Comm& comm, const Args& args, Buffers& bufs)
      : HybridOp(comm, args, bufs),
        count_(mpi::mpi_count(args.count)),
        op_(mpi::to_mpi(reduction_of(args.op))),
        slice_(peers_, args, node_rank_),
        scratch_(team_.make_shared<Scratch>(
            node_rank_, root_node_ || node_size_ == 1 ? std::size_t{0} : args.count)) {}

  void run() override {
    const Elem* mine = bufs_.send;
    if (node_size_ > 1) {
      Elem* node_vector = root_node_ ? leader_buffers().recv : scratch_->vector.data();
      node_barrier();
      slice_.reduce_into(node_vector);
      node_barrier();
      mine = node_vector;
    }
    if (!leader_) return;
    if (comm_.rank() == 0)
      MPI_Reduce(mine == bufs_.recv ? MPI_IN_PLACE : mine, bufs_.recv, count_, MPI_INT64_T, op_, 0,
                 leaders_);
    else
      MPI_Reduce(mine, nullptr, count_, MPI_INT64_T, op_, 0, leaders_);
  }

 private:
  int count_;
  MPI_Op op_;
  NodeSlice slice_;
  std::shared_ptr<Scratch> scratch_;
};

std::unique_ptr<OpInstance> make_reduce(Comm& comm, const Args& args, Buffers& bufs) {
  return std::make_unique<ReduceOp>(comm, args, bufs);
}

}  // namespace

OpTable reduce_ops() { return op_entries({OpKind::kReduceMax, OpKind::kReduceSum}, make_reduce); }

}  // namespace comops::hybrid
