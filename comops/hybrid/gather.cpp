// hybrid gather (root 0): a node barrier (the send buffers are filled); each leader's MPI_Gatherv
// sends its node's blocks straight from its peers' send buffers (one MPI datatype of their
// addresses in the node's window: no copy) into participant 0's receive buffer, node after node;
// a node barrier, so that no peer refills its send buffer while its leader's MPI call reads it.
#include <mpi.h>

#include "comops/hybrid/hybrid_op.hpp"

namespace comops::hybrid {
namespace {

class Gather final : public NodeBlocksOp {
 public:
  Gather(Comm& comm, const Args& args, Buffers& bufs)
      : NodeBlocksOp(comm, args, bufs, Side::kSend) {}

  void run() override {
    node_barrier();
    if (leader_) {
      Elem* target = root_ ? root_->gather_target(bufs_.recv) : nullptr;
      MPI_Gatherv(MPI_BOTTOM, 1, node_blocks_.get(), target, root_ ? root_->counts() : nullptr,
                  root_ ? root_->displs() : nullptr, block_.get(), 0, leaders_);
      if (root_) root_->gathered(bufs_.recv);
    }
    node_barrier();
  }
};

std::unique_ptr<OpInstance> make_gather(Comm& comm, const Args& args, Buffers& bufs) {
  return std::make_unique<Gather>(comm, args, bufs);
}

}  // namespace

OpTable gather_ops() { return op_entries({OpKind::kGather}, make_gather); }

}  // namespace comops::hybrid
