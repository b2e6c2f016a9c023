// swcc one-sided put and get with active target (the -fence ops of comops/rma.hpp): participant
// 1's exposed buffer is a global array homed in its DSM segment. Each call is one epoch of the
// pair, opened and closed by DSM flags in the waiting side's own memory (as swcc ping-pong's):
// put-fence: 1 raises "exposed" in 0's memory; 0 stores its blocks into 1's array (the home
// writes them and keeps them), syncs and raises "done" in 1's memory; 1 then reads its array
// into its receive buffer (home hits). get-fence: 1 writes its blocks into its own array (which
// invalidates 0's cached copies of the last epoch) and raises "exposed"; 0 gets them, syncs and
// raises "done". The passive-target ops are not in swcc's table: a DSM target's memory is
// current for the target only after it synchronises, so the target cannot stay out of the call.
#include "comops/rma.hpp"

#include "comops/swcc/dsm_op.hpp"

namespace comops::swcc {
namespace {

template <std::size_t B>
class FenceRma final : public DsmOpBase {
 public:
  FenceRma(const OpConfig& cfg, Comm& comm, const Args& args, Buffers& bufs)
      : FenceRma(cfg, comm, args, bufs, rma_shape(args.op, args.bytes)) {}

  void run() override {
    const int me = d_.rank();
    if (me > 1) return;
    ++seq_;
    if (me == 1) {
      if (!shape_.put) d_.put(data_.on(1), bufs_.send, shape_.slots * count_);
      raise(0);  // syncs the exposure first
      wait_own_flag();
      if (shape_.put) d_.read_bulk(bufs_.recv, data_.on(1), shape_.slots * count_);
      return;
    }
    wait_own_flag();
    for (int j = 0; j < shape_.window; ++j) {
      const std::size_t at = static_cast<std::size_t>(j) % shape_.slots * count_;
      if (shape_.put)
        d_.store(data_.on(1) + static_cast<std::ptrdiff_t>(at), bufs_.send + at, count_);
      else
        d_.get(bufs_.recv + at, data_.on(1) + static_cast<std::ptrdiff_t>(at), count_);
    }
    raise(1);  // syncs the operations first
  }

 private:
  FenceRma(const OpConfig& cfg, Comm& comm, const Args& args, Buffers& bufs, RmaShape shape)
      : DsmOpBase(comm, cfg, segment_for(shape.slots * args.bytes, 1)),
        d_(*engine_),
        bufs_(bufs),
        count_(args.count),
        shape_(shape),
        data_(d_.template alloc<Elem>(shape.slots * args.count)),
        flag_(d_.template alloc<std::int64_t>(1)) {}

  // Completes this side's operations, then stores seq_ into participant `rank`'s flag.
  void raise(int rank) {
    d_.sync();
    d_.store(flag_.on(rank), &seq_, 1);
    d_.sync();
  }
  void wait_own_flag() {
    auto f = flag_.on(d_.rank());
    engine_->wait_until([&] { return d_.read(f) == seq_; });
  }

  Dsm<B> d_;
  Buffers& bufs_;
  std::size_t count_;
  RmaShape shape_;
  SpreadArray<Elem> data_;
  SpreadArray<std::int64_t> flag_;
  std::int64_t seq_ = 0;
};

std::unique_ptr<OpInstance> make_fence_rma(const OpConfig& cfg, Comm& comm, const Args& args,
                                           Buffers& bufs) {
  if (!rma_shape(args.op, args.bytes).fence)
    throw RuntimeError("swcc implements the one-sided ops with active target (-fence) only");
  return make_dsm_op<FenceRma>(cfg, comm, args, bufs);
}

}  // namespace

OpTable rma_ops(const OpConfig& cfg) {
  return op_entries(
      {OpKind::kPutFence, OpKind::kGetFence, OpKind::kPutFenceBw, OpKind::kGetFenceBw},
      make_fence_rma, cfg);
}

}  // namespace comops::swcc
