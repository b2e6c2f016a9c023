// hybrid barrier: a node barrier (every node rank has arrived at its leader), the leaders'
// MPI_Barrier, a node barrier (the leader releases its node).
#include <mpi.h>

#include "comops/hybrid/hybrid_op.hpp"

namespace comops::hybrid {
namespace {

class Barrier final : public HybridOp {
 public:
  Barrier(Comm& comm, const Args& args, Buffers& bufs) : HybridOp(comm, args, bufs) {}
  void run() override {
    node_barrier();
    if (leader_) MPI_Barrier(leaders_);
    node_barrier();
  }
};

std::unique_ptr<OpInstance> make_barrier(Comm& comm, const Args& args, Buffers& bufs) {
  return std::make_unique<Barrier>(comm, args, bufs);
}

}  // namespace

OpTable barrier_ops() { return op_entries({OpKind::kBarrier}, make_barrier); }

}  // namespace comops::hybrid
