// shm-direct streaming bandwidth (osu_bw's method between threads 0 and 1): once thread 1 has
// posted its receive buffer (entered the run), thread 0 copies each message of the window from
// its slot of its send buffer straight into the same slot of thread 1's receive buffer (one copy
// per message) and raises that slot's flag, one cache line per slot, without waiting in between;
// thread 1 waits for every slot's flag of the window, then acks, and thread 0 returns on the
// ack. Other threads idle.
#include <fmt/format.h>

#include <vector>

#include "comops/shm/shm_op.hpp"

namespace comops::shm {
namespace {

struct StreamShared {
  StreamShared(Arena& arena, int window) : slot(arena, static_cast<std::size_t>(window)) {}
  ShmArray<SeqFlag> slot;  // slot[k] = s when message k of window s is delivered
  SeqFlag rx;              // thread 1: 2s-1 in run s (receive buffer posted), 2s all received
};

class DirectStreamBw final : public ShmOp {
 public:
  DirectStreamBw(Comm& comm, const Args& args, Buffers& bufs) : ShmOp(comm, args, bufs) {
    sh_ = team_.make_shared<StreamShared>(rank_, args.window);
    publish();
  }

  void run() override {
    if (rank_ > 1) return;
    const std::uint64_t s = next();
    const std::size_t n = args_.count;
    if (rank_ == 0) {
      Elem* dst = peers_[1].recv;
      team_.wait_geq(sh_->rx.seq, 2 * s - 1);
      for (std::size_t k = 0; k < sh_->slot.size(); ++k) {
        copy_elems(dst + k * n, bufs_.send + k * n, n);
        sh_->slot[k].seq.store(s, std::memory_order_release);
      }
      team_.wait_geq(sh_->rx.seq, 2 * s);
    } else {
      sh_->rx.seq.store(2 * s - 1, std::memory_order_release);
      for (SeqFlag& f : sh_->slot) team_.wait_geq(f.seq, s);
      sh_->rx.seq.store(2 * s, std::memory_order_release);
    }
  }

 private:
  std::shared_ptr<StreamShared> sh_;
};

std::unique_ptr<OpInstance> make_stream_bw(Comm& comm, const Args& args, Buffers& bufs) {
  if (comm.size() < 2)
    throw RuntimeError(fmt::format("shm stream-bw needs 2 threads, got {}", comm.size()));
  return std::make_unique<DirectStreamBw>(comm, args, bufs);
}

}  // namespace

// The direct scheme only: a window of messages in flight needs no staging buffer.
OpTable stream_bw_ops(Scheme scheme) {
  if (scheme != Scheme::kDirect) return {};
  return op_entries({OpKind::kStreamBw}, make_stream_bw);
}

}  // namespace comops::shm
