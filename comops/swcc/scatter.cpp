// swcc scatter: the root writes all blocks into a global buffer in its memory, DSM barrier, each
// rank reads its own block with a bulk get, DSM barrier.
#include "comops/swcc/dsm_op.hpp"

namespace comops::swcc {
namespace {

template <std::size_t B>
class Scatter final : public SharedArrayOp<B> {
  using Base = SharedArrayOp<B>;
  using Base::bufs_, Base::buf_, Base::count_, Base::d_, Base::root_;

 public:
  Scatter(const OpConfig& cfg, Comm& comm, const Args& args, Buffers& bufs)
      : Base(cfg, comm, args, bufs, segment_for(args.bytes, args.np),
             args.count * static_cast<std::size_t>(args.np)),
        closing_barrier_(!cfg.drop_closing_barrier) {}

  void run() override {
    if (d_.rank() == root_) d_.write_bulk(buf_.on(root_), bufs_.send, buf_.count);
    d_.barrier();
    const auto mine = buf_.on(root_) + static_cast<std::ptrdiff_t>(d_.rank() * count_);
    d_.read_bulk(bufs_.recv, mine, count_);
    if (closing_barrier_) d_.barrier();  // the next put must not overtake the readers' gets
  }

 private:
  bool closing_barrier_;
};

std::unique_ptr<OpInstance> make_scatter(const OpConfig& cfg, Comm& comm, const Args& args,
                                         Buffers& bufs) {
  return make_dsm_op<Scatter>(cfg, comm, args, bufs);
}

}  // namespace

OpTable scatter_ops(const OpConfig& cfg) {
  return op_entries({OpKind::kScatter}, make_scatter, cfg);
}

}  // namespace comops::swcc
