// swcc reduce-max / reduce-sum: the root seeds a shared vector in its memory, DSM barrier, every
// other rank folds its input in under a DSM lock, DSM barrier (fold_into), the root reads the
// result.
#include <vector>

#include "comops/swcc/dsm_op.hpp"
#include "comops/swcc/fold.hpp"

namespace comops::swcc {
namespace {

template <std::size_t B>
class Reduce final : public SharedArrayOp<B> {
  using Base = SharedArrayOp<B>;
  using Base::bufs_, Base::buf_, Base::count_, Base::d_, Base::root_;

 public:
  Reduce(const OpConfig& cfg, Comm& comm, const Args& args, Buffers& bufs)
      : Base(cfg, comm, args, bufs, segment_for(args.bytes, 1), args.count),
        max_(reduction_of(args.op) == comops::Reduce::kMax),
        tmp_(args.count) {}

  void run() override {
    const auto acc = buf_.on(root_);
    fold_into(d_, acc, root_, bufs_.send, count_, max_, tmp_);
    if (d_.rank() == root_) d_.read_bulk(bufs_.recv, acc, count_);
  }

 private:
  bool max_;
  std::vector<Elem> tmp_;
};

std::unique_ptr<OpInstance> make_reduce(const OpConfig& cfg, Comm& comm, const Args& args,
                                        Buffers& bufs) {
  return make_dsm_op<Reduce>(cfg, comm, args, bufs);
}

}  // namespace

OpTable reduce_ops(const OpConfig& cfg) {
  return op_entries({OpKind::kReduceMax, OpKind::kReduceSum}, make_reduce, cfg);
}

}  // namespace comops::swcc
