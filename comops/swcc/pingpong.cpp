// swcc ping-pong: rank 0 stores its message and then a flag into buffers homed at rank 1, which
// spins on the flag in its own memory, reads the message and answers the same way.
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
        data_(d_.template alloc<Elem>(args.count)),
        flag_(d_.template alloc<std::int64_t>(1)) {}

  void run() override {
    const int me = d_.rank();
    if (me > 1) return;
    ++seq_;
    const int peer = 1 - me;
    if (me == 1) wait_flag();
    if (me == 1) d_.read_bulk(bufs_.recv, data_.on(1), count_);
    d_.store(data_.on(peer), bufs_.send, count_);  // the peer (home) ends up owning it
    d_.sync();
    d_.store(flag_.on(peer), &seq_, 1);
    d_.sync();
    if (me == 0) {
      wait_flag();
      d_.read_bulk(bufs_.recv, data_.on(0), count_);
    }
  }

 private:
  void wait_flag() {
    auto f = flag_.on(d_.rank());
    engine_->wait_until([&] { return d_.read(f) == seq_; });
  }
  Dsm<B> d_;
  Buffers& bufs_;
  std::size_t count_;
  SpreadArray<Elem> data_;
  SpreadArray<std::int64_t> flag_;
  std::int64_t seq_ = 0;
};

}  // namespace

std::unique_ptr<OpInstance> make_pingpong(const OpConfig& cfg, Comm& comm, const Args& args,
                                          Buffers& bufs) {
  return make_dsm_op<Pingpong>(cfg, comm, args, bufs);
}

}  // namespace comops::swcc
