// swcc barrier: the DSM barrier (sync, then a barrier that serves protocol messages).
#include "comops/swcc/dsm_op.hpp"

namespace comops::swcc {
namespace {

template <std::size_t B>
class Barrier final : public DsmOpBase {
 public:
  Barrier(const OpConfig& cfg, Comm& comm, const Args&, Buffers&)
      : DsmOpBase(comm, cfg, 1 << 16), d_(*engine_) {}
  void run() override { d_.barrier(); }

 private:
  Dsm<B> d_;
};

std::unique_ptr<OpInstance> make_barrier(const OpConfig& cfg, Comm& comm, const Args& args,
                                         Buffers& bufs) {
  return make_dsm_op<Barrier>(cfg, comm, args, bufs);
}

}  // namespace

OpTable barrier_ops(const OpConfig& cfg) {
  return op_entries({OpKind::kBarrier}, make_barrier, cfg);
}

}  // namespace comops::swcc
