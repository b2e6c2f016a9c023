// swcc non-blocking ping-pong, with Split-C's split-phase assignment (:=) where pingpong uses its
// one-way store (:-): the sender puts its message into the receiver's buffer with a split-phase
// put (the coherence protocol brings the blocks into the sender's cache, Modified), syncs, and
// raises the flag in the receiver's memory; the receiver spins on it, takes the message with a
// split-phase get and sync, and answers the same way. Other ranks idle.
#include "comops/swcc/dsm_op.hpp"

namespace comops::swcc {
namespace {

template <std::size_t B>
class PingpongNb final : public DsmOpBase {
 public:
  PingpongNb(const OpConfig& cfg, Comm& comm, const Args& args, Buffers& bufs)
      : DsmOpBase(comm, cfg, segment_for(args.bytes, 1)),
        d_(*engine_),
        bufs_(bufs),
        count_(args.count),
        data_(d_.template alloc<Elem>(args.count)),
        flag_(d_.template alloc<std::int64_t>(1)) {}

  void run() override {
    const int me = d_.rank();
    if (me > 1) return;
    ++seq_;
    if (me == 1) receive();
    const int peer = 1 - me;
    d_.put(data_.on(peer), bufs_.send, count_);  // := into the peer's buffer
    d_.sync();
    d_.store(flag_.on(peer), &seq_, 1);  // the flag stays in the peer's memory: it spins there
    d_.sync();
    if (me == 0) receive();
  }

 private:
  void receive() {
    const int me = d_.rank();
    auto f = flag_.on(me);
    engine_->wait_until([&] { return d_.read(f) == seq_; });
    d_.get(bufs_.recv, data_.on(me), count_);  // := from its own buffer, owned by the sender
    d_.sync();
  }
  Dsm<B> d_;
  Buffers& bufs_;
  std::size_t count_;
  SpreadArray<Elem> data_;
  SpreadArray<std::int64_t> flag_;
  std::int64_t seq_ = 0;
};

}  // namespace

std::unique_ptr<OpInstance> make_pingpong_nb(const OpConfig& cfg, Comm& comm, const Args& args,
                                             Buffers& bufs) {
  return make_dsm_op<PingpongNb>(cfg, comm, args, bufs);
}

}  // namespace comops::swcc
