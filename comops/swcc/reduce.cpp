// swcc reduce-max / reduce-sum: the root seeds a shared vector in its memory, DSM barrier, every
// other rank folds its input in under a DSM lock, DSM barrier, the root reads the result.
#include <algorithm>
#include <vector>

#include "comops/swcc/dsm_op.hpp"

namespace comops::swcc {
namespace {

template <std::size_t B>
class Reduce final : public SharedArrayOp<B> {
  using Base = SharedArrayOp<B>;
  using Base::bufs_, Base::buf_, Base::count_, Base::d_, Base::root_;

 public:
  Reduce(const OpConfig& cfg, Comm& comm, const Args& args, Buffers& bufs)
      : Base(cfg, comm, args, bufs, segment_for(args.bytes, 1), args.count),
        max_(args.op == OpKind::kReduceMax),
        tmp_(args.count) {}

  void run() override {
    const auto acc = buf_.on(root_);
    if (d_.rank() == root_) d_.put(acc, bufs_.send, count_);
    d_.barrier();
    if (d_.rank() != root_) {
      d_.lock(0);
      d_.read_bulk(tmp_.data(), acc, count_);
      for (std::size_t i = 0; i < count_; ++i)
        tmp_[i] = max_ ? std::max(tmp_[i], bufs_.send[i]) : tmp_[i] + bufs_.send[i];
      d_.put(acc, tmp_.data(), count_);
      d_.unlock(0);  // syncs the put first
    }
    d_.barrier();
    if (d_.rank() == root_) d_.read_bulk(bufs_.recv, acc, count_);
  }

 private:
  bool max_;
  std::vector<Elem> tmp_;
};

}  // namespace

std::unique_ptr<OpInstance> make_reduce(const OpConfig& cfg, Comm& comm, const Args& args,
                                        Buffers& bufs) {
  return make_dsm_op<Reduce>(cfg, comm, args, bufs);
}

}  // namespace comops::swcc
