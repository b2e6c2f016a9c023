// hybrid allreduce (max or sum): a node barrier (the send buffers are filled); every node rank
// reduces its slice of the node's send buffers into its leader's receive buffer; a node barrier;
// the leaders' MPI_Allreduce in place; a node barrier (the result is there); every other node rank
// copies it into its own receive buffer; a node barrier, so that the leader's buffer does not
// change while a peer copies it. A node of one rank is MPI_Allreduce alone.
#include <mpi.h>

#include "comops/hybrid/hybrid_op.hpp"
#include "comops/shm/shm_op.hpp"

namespace comops::hybrid {
namespace {

class AllreduceOp final : public HybridOp {
 public:
  AllreduceOp(Comm& comm, const Args& args, Buffers& bufs)
      : HybridOp(comm, args, bufs),
        count_(mpi::mpi_count(args.count)),
        op_(mpi::to_mpi(reduction_of(args.op))),
        slice_(peers_, args, node_rank_) {}

  void run() override {
    if (node_size_ == 1) {
      MPI_Allreduce(bufs_.send, bufs_.recv, count_, MPI_INT64_T, op_, leaders_);
      return;
    }
    Elem* node_vector = leader_buffers().recv;
    node_barrier();
    slice_.reduce_into(node_vector);
    node_barrier();
    if (leader_) MPI_Allreduce(MPI_IN_PLACE, bufs_.recv, count_, MPI_INT64_T, op_, leaders_);
    node_barrier();
    if (!leader_) shm::copy_elems(bufs_.recv, node_vector, args_.count);
    node_barrier();
  }

 private:
  int count_;
  MPI_Op op_;
  NodeSlice slice_;
};

std::unique_ptr<OpInstance> make_allreduce(Comm& comm, const Args& args, Buffers& bufs) {
  return std::make_unique<AllreduceOp>(comm, args, bufs);
}

}  // namespace

OpTable allreduce_ops() {
  return op_entries({OpKind::kAllreduceMax, OpKind::kAllreduceSum}, make_allreduce);
}

}  // namespace comops::hybrid
