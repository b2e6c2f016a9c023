// Barrier. Staged: the central counter barrier (the paper's full barrier). Direct: the team's
// dissemination barrier over per-thread sequence flags.
#include "comops/shm/shm_op.hpp"

namespace comops::shm {
namespace {

class Barrier final : public ShmOp {
 public:
  Barrier(Scheme scheme, Comm& comm, const Args& args, Buffers& bufs)
      : ShmOp(comm, args, bufs), scheme_(scheme) {}

  void run() override {
    if (scheme_ == Scheme::kStaged)
      team_.central_barrier(rank_);
    else
      team_.barrier(rank_);
  }

 private:
  Scheme scheme_;
};

std::unique_ptr<OpInstance> make_barrier(Scheme scheme, Comm& comm, const Args& args,
                                         Buffers& bufs) {
  return std::make_unique<Barrier>(scheme, comm, args, bufs);
}

}  // namespace

OpTable barrier_ops(Scheme scheme) { return op_entries({OpKind::kBarrier}, make_barrier, scheme); }

}  // namespace comops::shm
