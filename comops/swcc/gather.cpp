// swcc gather: every rank stores its block into a global buffer homed at the root (which ends up
// owning it), DSM barrier, the root reads the whole buffer from its own memory.
#include "comops/swcc/dsm_op.hpp"

namespace comops::swcc {
namespace {

template <std::size_t B>
class Gather final : public SharedArrayOp<B> {
  using Base = SharedArrayOp<B>;
  using Base::bufs_, Base::buf_, Base::count_, Base::d_, Base::root_;

 public:
  Gather(const OpConfig& cfg, Comm& comm, const Args& args, Buffers& bufs)
      : Base(cfg, comm, args, bufs, segment_for(args.bytes, args.np),
             args.count * static_cast<std::size_t>(args.np)) {}

  void run() override {
    const auto mine = buf_.on(root_) + static_cast<std::ptrdiff_t>(d_.rank() * count_);
    d_.store(mine, bufs_.send, count_);
    d_.barrier();
    if (d_.rank() == root_) d_.read_bulk(bufs_.recv, buf_.on(root_), buf_.count);
    d_.barrier();  // the next stores must not overtake the root's read
  }
};

std::unique_ptr<OpInstance> make_gather(const OpConfig& cfg, Comm& comm, const Args& args,
                                        Buffers& bufs) {
  return make_dsm_op<Gather>(cfg, comm, args, bufs);
}

}  // namespace

OpTable gather_ops(const OpConfig& cfg) { return op_entries({OpKind::kGather}, make_gather, cfg); }

}  // namespace comops::swcc
