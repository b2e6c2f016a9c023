// hybrid broadcast: the leaders' MPI_Bcast from participant 0 (its send buffer) into every other
// leader's receive buffer; a node barrier; every other node rank copies its leader's buffer into
// its own; a node barrier, so that no leader's buffer changes (the next call, the harness's next
// fill) while a peer still copies it.
#include <mpi.h>

#include "comops/hybrid/hybrid_op.hpp"
#include "comops/shm/shm_op.hpp"

namespace comops::hybrid {
namespace {

class Broadcast final : public HybridOp {
 public:
  Broadcast(Comm& comm, const Args& args, Buffers& bufs)
      : HybridOp(comm, args, bufs), bytes_(mpi::mpi_count(args.bytes)) {}

  void run() override {
    const shm::Peer& lead = leader_buffers();
    Elem* data = root_node_ ? lead.send : lead.recv;  // participant 0 sends from its send buffer
    if (leader_) MPI_Bcast(data, bytes_, MPI_BYTE, 0, leaders_);
    if (node_size_ == 1) return;
    node_barrier();
    if (!leader_) shm::copy_elems(bufs_.recv, data, args_.count);
    node_barrier();
  }

 private:
  int bytes_;
};

std::unique_ptr<OpInstance> make_broadcast(Comm& comm, const Args& args, Buffers& bufs) {
  return std::make_unique<Broadcast>(comm, args, bufs);
}

}  // namespace

OpTable broadcast_ops() { return op_entries({OpKind::kBroadcast}, make_broadcast); }

}  // namespace comops::hybrid
