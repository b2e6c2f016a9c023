// shm one-sided put and get (comops/rma.hpp), direct scheme: thread 0 (the origin) copies
// straight into (put) or out of (get) thread 1's buffer in the same address space, then raises
// its completion flag, a cache-line sequence flag. Passive target: thread 1 takes no part. The
// -fence ops make each call an epoch of both: thread 1 raises its own flag when its buffer is
// exposed, thread 0 waits for it before copying, and thread 1 returns once thread 0's flag says
// the copies are complete. The staged scheme has no one-sided form (a staging buffer needs the
// target to copy out), so its op table leaves these ops out.
#include "comops/rma.hpp"

#include <fmt/format.h>

#include "comops/shm/shm_op.hpp"

namespace comops::shm {
namespace {

struct RmaShared {
  SeqFlag exposed;  // thread 1: s when its buffer is exposed for call s (the -fence ops)
  SeqFlag done;     // thread 0: s when the operations of its call s are complete
  explicit RmaShared(Arena&) {}
};

class DirectRma final : public ShmOp {
 public:
  DirectRma(Comm& comm, const Args& args, Buffers& bufs)
      : ShmOp(comm, args, bufs), shape_(rma_shape(args.op, args.bytes)) {
    sh_ = team_.make_shared<RmaShared>(rank_);
    publish();
  }

  void run() override {
    if (rank_ > 1) return;
    const std::uint64_t s = next();
    if (rank_ == 1) {
      if (!shape_.fence) return;
      sh_->exposed.seq.store(s, std::memory_order_release);
      team_.wait_geq(sh_->done.seq, s);
      return;
    }
    if (shape_.fence) team_.wait_geq(sh_->exposed.seq, s);
    const Peer& target = peers_[1];
    const std::size_t n = args_.count;
    for (int j = 0; j < shape_.window; ++j) {
      const std::size_t at = static_cast<std::size_t>(j) % shape_.slots * n;
      if (shape_.put)
        copy_elems(target.recv + at, bufs_.send + at, n);
      else
        copy_elems(bufs_.recv + at, target.send + at, n);
    }
    sh_->done.seq.store(s, std::memory_order_release);
  }

 private:
  RmaShape shape_;
  std::shared_ptr<RmaShared> sh_;
};

std::unique_ptr<OpInstance> make_rma(Scheme scheme, Comm& comm, const Args& args, Buffers& bufs) {
  if (scheme != Scheme::kDirect) throw RuntimeError("shm one-sided ops need the direct scheme");
  if (comm.size() < 2)
    throw RuntimeError(fmt::format("shm one-sided ops need 2 threads, got {}", comm.size()));
  return std::make_unique<DirectRma>(comm, args, bufs);
}

}  // namespace

// Every one-sided op: the origin copies straight into or out of the target's buffer, which only
// the direct scheme does.
OpTable rma_ops(Scheme scheme) {
  if (scheme != Scheme::kDirect) return {};
  return op_entries({OpKind::kPut, OpKind::kGet, OpKind::kPutBw, OpKind::kGetBw, OpKind::kPutFence,
                     OpKind::kGetFence, OpKind::kPutFenceBw, OpKind::kGetFenceBw},
                    make_rma, scheme);
}

}  // namespace comops::shm
