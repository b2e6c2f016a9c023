// swcc reduce-scatter-max / reduce-scatter-sum: the fold of reduce (fold_into: participant 0
// seeds a shared vector in its memory, DSM barrier, every other rank folds its input in under a
// DSM lock, DSM barrier), then every rank reads its own block of the result with a bulk get
// (osu_reduce_scatter's split: reduce_scatter_block in comops/op.hpp), then a closing DSM barrier
// so that the next operation's seeding put cannot overtake this one's reads.
#include <vector>

#include "comops/swcc/dsm_op.hpp"
#include "comops/swcc/fold.hpp"

namespace comops::swcc {
namespace {

constexpr int kHome = 0;  // the participant whose memory holds the shared vector

template <std::size_t B>
class ReduceScatter final : public SharedArrayOp<B> {
  using Base = SharedArrayOp<B>;
  using Base::bufs_, Base::buf_, Base::count_, Base::d_;

 public:
  ReduceScatter(const OpConfig& cfg, Comm& comm, const Args& args, Buffers& bufs)
      : Base(cfg, comm, args, bufs, segment_for(args.bytes, 1), args.count),
        max_(reduction_of(args.op) == Reduce::kMax),
        mine_(reduce_scatter_block(args.count, args.np, comm.rank())),
        tmp_(args.count) {}

  void run() override {
    const auto acc = buf_.on(kHome);
    fold_into(d_, acc, kHome, bufs_.send, count_, max_, tmp_);
    if (mine_.count > 0) d_.read_bulk(bufs_.recv, acc + mine_.offset, mine_.count);
    d_.barrier();  // the next seeding put must not overtake these reads
  }

 private:
  bool max_;
  ScatterBlock mine_;
  std::vector<Elem> tmp_;
};

std::unique_ptr<OpInstance> make_reduce_scatter(const OpConfig& cfg, Comm& comm, const Args& args,
                                                Buffers& bufs) {
  return make_dsm_op<ReduceScatter>(cfg, comm, args, bufs);
}

}  // namespace

OpTable reduce_scatter_ops(const OpConfig& cfg) {
  return op_entries({OpKind::kReduceScatterMax, OpKind::kReduceScatterSum}, make_reduce_scatter,
                    cfg);
}

}  // namespace comops::swcc
