// Alltoall and allgather on the DSM, the layout the SWCC design makes cheap: rank i stores its
// block for rank j into slot i of a buffer homed at j (a store is one message to the home, which
// ends up owning the blocks), DSM barrier, every rank reads its own buffer from its own memory
// (home hits, no messages). Two buffers alternate between runs: the stores of run s+1 go to the
// other one, and a rank reaches the stores of run s+2 only through the barrier of run s+1, which
// every receiver enters after its read of run s, so no closing barrier is needed.
#include "comops/swcc/exchange.hpp"

namespace comops::swcc {
namespace {

template <std::size_t B>
class ExchangeOp final : public SharedArrayOp<B> {
  using Base = SharedArrayOp<B>;
  using Base::bufs_, Base::buf_, Base::count_, Base::d_;

 public:
  ExchangeOp(const OpConfig& cfg, Comm& comm, const Args& args, Buffers& bufs, Exchange what)
      : Base(cfg, comm, args, bufs, segment_for(2 * args.bytes, args.np),
             2 * args.count * static_cast<std::size_t>(args.np)),
        np_(args.np),
        personal_(what == Exchange::kPersonal) {}

  void run() override {
    const int me = d_.rank();
    const std::size_t half = count_ * static_cast<std::size_t>(np_);
    const auto base = static_cast<std::ptrdiff_t>((runs_++ % 2) * half);
    const auto slot = base + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(me) * count_);
    // Own slot first, then the next ranks, so that the homes' work spreads.
    for (int k = 0; k < np_; ++k) {
      const int j = (me + k) % np_;
      const Elem* block = bufs_.send + (personal_ ? static_cast<std::size_t>(j) * count_ : 0);
      d_.store(buf_.on(j) + slot, block, count_);
    }
    d_.barrier();  // completes every store
    d_.read_bulk(bufs_.recv, buf_.on(me) + base, half);
  }

 private:
  const int np_;
  const bool personal_;
  std::uint64_t runs_ = 0;  // the same on every rank: the buffer of this run is runs_ % 2
};

}  // namespace

std::unique_ptr<OpInstance> make_exchange(Exchange what, const OpConfig& cfg, Comm& comm,
                                          const Args& args, Buffers& bufs) {
  return make_dsm_op<ExchangeOp>(cfg, comm, args, bufs, what);
}

OpTable exchange_entries(OpKind kind, Exchange what, const OpConfig& cfg) {
  return op_entries({kind}, [what, cfg](Comm& comm, const Args& args, Buffers& bufs) {
    return make_exchange(what, cfg, comm, args, bufs);
  });
}

}  // namespace comops::swcc
