// swcc allreduce-max / allreduce-sum: the fold of reduce (fold_into: participant 0 seeds a shared
// vector in its memory, DSM barrier, every other rank folds its input in under a DSM lock, DSM
// barrier), then every rank reads the result with a bulk get, then a closing DSM barrier so that
// the next operation's seeding put cannot overtake this one's reads.
#include <vector>

#include "comops/swcc/dsm_op.hpp"
#include "comops/swcc/fold.hpp"

namespace comops::swcc {
namespace {

constexpr int kHome = 0;  // the participant whose memory holds the shared vector

template <std::size_t B>
class Allreduce final : public SharedArrayOp<B> {
  using Base = SharedArrayOp<B>;
  using Base::bufs_, Base::buf_, Base::count_, Base::d_;

 public:
  Allreduce(const OpConfig& cfg, Comm& comm, const Args& args, Buffers& bufs)
      : Base(cfg, comm, args, bufs, segment_for(args.bytes, 1), args.count),
        max_(reduction_of(args.op) == Reduce::kMax),
        tmp_(args.count) {}

  void run() override {
    const auto acc = buf_.on(kHome);
    fold_into(d_, acc, kHome, bufs_.send, count_, max_, tmp_);
    d_.read_bulk(bufs_.recv, acc, count_);
    d_.barrier();  // the next seeding put must not overtake these reads
  }

 private:
  bool max_;
  std::vector<Elem> tmp_;
};

std::unique_ptr<OpInstance> make_allreduce(const OpConfig& cfg, Comm& comm, const Args& args,
                                           Buffers& bufs) {
  return make_dsm_op<Allreduce>(cfg, comm, args, bufs);
}

}  // namespace

OpTable allreduce_ops(const OpConfig& cfg) {
  return op_entries({OpKind::kAllreduceMax, OpKind::kAllreduceSum}, make_allreduce, cfg);
}

}  // namespace comops::swcc
