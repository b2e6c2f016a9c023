// swcc bidirectional streaming bandwidth (osu_bibw's method between ranks 0 and 1): both send a
// window of W messages to each other at once. Each rank stores its window with Split-C's one-way
// store (:-) into the window buffer homed at the peer, syncs, and stores a flag there; it then
// spins on its own flag, reads the peer's window from its own memory and stores an ack in the
// peer's memory. A rank stores its next window only after the peer's ack of this one, so a
// window is never overwritten while it is read. Other ranks idle.
#include "comops/swcc/dsm_op.hpp"

namespace comops::swcc {
namespace {

template <std::size_t B>
class Bibw final : public DsmOpBase {
 public:
  Bibw(const OpConfig& cfg, Comm& comm, const Args& args, Buffers& bufs)
      : DsmOpBase(comm, cfg, segment_for(args.bytes * static_cast<std::size_t>(args.window), 1)),
        d_(*engine_),
        bufs_(bufs),
        n_(args.count * static_cast<std::size_t>(args.window)),
        data_(d_.template alloc<Elem>(n_)),
        flag_(d_.template alloc<std::int64_t>(1)),
        ack_(d_.template alloc<std::int64_t>(1)) {}

  void run() override {
    const int me = d_.rank();
    if (me > 1) return;
    const int peer = 1 - me;
    const std::int64_t previous = seq_++;
    wait_for(ack_.on(me), previous);  // the peer has read my window of the previous run
    d_.store(data_.on(peer), bufs_.send, n_);
    d_.sync();
    d_.store(flag_.on(peer), &seq_, 1);  // the flag stays in the peer's memory: it spins there
    d_.sync();
    wait_for(flag_.on(me), seq_);
    d_.read_bulk(bufs_.recv, data_.on(me), n_);
    d_.store(ack_.on(peer), &seq_, 1);
    d_.sync();
  }

 private:
  void wait_for(global_ptr<std::int64_t> f, std::int64_t value) {
    engine_->wait_until([&] { return d_.read(f) == value; });
  }

  Dsm<B> d_;
  Buffers& bufs_;
  std::size_t n_;  // elements of a window
  SpreadArray<Elem> data_;
  SpreadArray<std::int64_t> flag_, ack_;
  std::int64_t seq_ = 0;
};

std::unique_ptr<OpInstance> make_bibw(const OpConfig& cfg, Comm& comm, const Args& args,
                                      Buffers& bufs) {
  return make_dsm_op<Bibw>(cfg, comm, args, bufs);
}

}  // namespace

OpTable bibw_ops(const OpConfig& cfg) { return op_entries({OpKind::kBibw}, make_bibw, cfg); }

}  // namespace comops::swcc
