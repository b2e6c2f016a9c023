// swcc ping-pong: rank 0 sends its message and then a flag into buffers homed at rank 1, which
// spins on the flag in its own memory, takes the message and answers the same way; other ranks
// idle. pingpong uses Split-C's one-way store (:-): the home ends up owning the blocks, and the
// receiver reads them from its own memory. pingpong-nb uses the split-phase assignment (:=): the
// sender puts with a split-phase put (the protocol brings the blocks into its cache, Modified)
// and syncs; the receiver takes the message with a split-phase get and sync.
#include "comops/swcc/dsm_op.hpp"

namespace comops::swcc {
namespace {

template <std::size_t B>
class Pingpong final : public DsmOpBase {
 public:
  Pingpong(const OpConfig& cfg, Comm& comm, const Args& args, Buffers& bufs)
      : DsmOpBase(comm, cfg, segment_for(args.bytes, 1)),
        d_(*engine_),
        bufs_(bufs),
        count_(args.count),
        split_phase_(args.op == OpKind::kPingpongNb),
        data_(d_.template alloc<Elem>(args.count)),
        flag_(d_.template alloc<std::int64_t>(1)) {}

  void run() override {
    const int me = d_.rank();
    if (me > 1) return;
    ++seq_;
    const int peer = 1 - me;
    if (me == 1) receive();
    if (split_phase_)
      d_.put(data_.on(peer), bufs_.send, count_);  // := into the peer's buffer
    else
      d_.store(data_.on(peer), bufs_.send, count_);  // :- the peer (home) ends up owning it
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
    if (split_phase_) {
      d_.get(bufs_.recv, data_.on(me), count_);  // := from its own buffer, owned by the sender
      d_.sync();
    } else {
      d_.read_bulk(bufs_.recv, data_.on(me), count_);
    }
  }
  Dsm<B> d_;
  Buffers& bufs_;
  std::size_t count_;
  bool split_phase_;
  SpreadArray<Elem> data_;
  SpreadArray<std::int64_t> flag_;
  std::int64_t seq_ = 0;
};

std::unique_ptr<OpInstance> make_pingpong(const OpConfig& cfg, Comm& comm, const Args& args,
                                          Buffers& bufs) {
  return make_dsm_op<Pingpong>(cfg, comm, args, bufs);
}

}  // namespace

OpTable pingpong_ops(const OpConfig& cfg) {
  return op_entries({OpKind::kPingpong, OpKind::kPingpongNb}, make_pingpong, cfg);
}

}  // namespace comops::swcc
