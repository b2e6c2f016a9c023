// swcc broadcast (the paper's staged scheme): the root writes a global buffer in its own memory,
// DSM barrier, every other rank reads it with a bulk get, DSM barrier.
#include "comops/swcc/dsm_op.hpp"

namespace comops::swcc {
namespace {

template <std::size_t B>
class Broadcast final : public SharedArrayOp<B> {
  using Base = SharedArrayOp<B>;
  using Base::bufs_, Base::buf_, Base::count_, Base::d_, Base::root_;

 public:
  Broadcast(const OpConfig& cfg, Comm& comm, const Args& args, Buffers& bufs)
      : Base(cfg, comm, args, bufs, segment_for(args.bytes, 1), args.count),
        closing_barrier_(!cfg.drop_closing_barrier) {}

  void run() override {
    if (d_.rank() == root_) d_.write_bulk(buf_.on(root_), bufs_.send, count_);
    d_.barrier();
    if (d_.rank() != root_) d_.read_bulk(bufs_.recv, buf_.on(root_), count_);
    if (closing_barrier_) d_.barrier();  // the next write must not overtake the readers' get
  }

 private:
  bool closing_barrier_;
};

std::unique_ptr<OpInstance> make_broadcast(const OpConfig& cfg, Comm& comm, const Args& args,
                                           Buffers& bufs) {
  return make_dsm_op<Broadcast>(cfg, comm, args, bufs);
}

}  // namespace

OpTable broadcast_ops(const OpConfig& cfg) {
  return op_entries({OpKind::kBroadcast}, make_broadcast, cfg);
}

}  // namespace comops::swcc
