// hybrid scatter (root 0): a node barrier (no peer still uses its receive buffer); participant 0
// sends node k's blocks to leader k with MPI_Scatterv, which each leader receives straight into
// its peers' receive buffers (one MPI datatype of their addresses in the node's window: the
// node-level copy-out is MPI's); a node barrier, after which each peer reads its block.
#include <mpi.h>

#include "comops/hybrid/hybrid_op.hpp"

namespace comops::hybrid {
namespace {

class Scatter final : public NodeBlocksOp {
 public:
  Scatter(Comm& comm, const Args& args, Buffers& bufs)
      : NodeBlocksOp(comm, args, bufs, Side::kRecv) {}

  void run() override {
    node_barrier();
    if (leader_) {
      const Elem* source = root_ ? root_->scatter_source(bufs_.send) : nullptr;
      MPI_Scatterv(source, root_ ? root_->counts() : nullptr, root_ ? root_->displs() : nullptr,
                   block_.get(), MPI_BOTTOM, 1, node_blocks_.get(), 0, leaders_);
    }
    node_barrier();
  }
};

std::unique_ptr<OpInstance> make_scatter(Comm& comm, const Args& args, Buffers& bufs) {
  return std::make_unique<Scatter>(comm, args, bufs);
}

}  // namespace

OpTable scatter_ops() { return op_entries({OpKind::kScatter}, make_scatter); }

}  // namespace comops::hybrid
