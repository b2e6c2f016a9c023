// Ping-pong between threads 0 and 1. Staged: both directions through one shared buffer with a
// flag handshake. Direct: the sender copies straight into the receiver's posted buffer (messages
// of up to kInlineElems travel inside the flag's cache line).
#include <fmt/format.h>

#include "comops/shm/shm_op.hpp"

namespace comops::shm {
namespace {

struct PingpongShared {
  explicit PingpongShared(std::size_t count, bool staged) : staging(staged ? count : 0) {}
  SeqFlag handshake;  // staged: 2s-1 when 0 -> 1 is staged, 2s when 1 -> 0 is
  Line line[2];       // direct: thread r's message s is ready (inline payload when small)
  std::vector<Peer> peers = std::vector<Peer>(2);
  SharedArray staging;
};

class StagedPingpong final : public ShmOp {
 public:
  StagedPingpong(Comm& comm, const Args& args, Buffers& bufs) : ShmOp(comm, args, bufs) {
    sh_ = team_.make_shared<PingpongShared>(rank_, args.count, true);
  }

  void run() override {
    if (rank_ > 1) return;
    const std::uint64_t s = next();
    Elem* staging = sh_->staging.data();
    const std::size_t n = args_.count;
    if (rank_ == 0) {
      copy_elems(staging, bufs_.send, n);
      sh_->handshake.seq.store(2 * s - 1, std::memory_order_release);
      team_.wait_geq(sh_->handshake.seq, 2 * s);
      copy_elems(bufs_.recv, staging, n);
    } else {
      team_.wait_geq(sh_->handshake.seq, 2 * s - 1);
      copy_elems(bufs_.recv, staging, n);
      copy_elems(staging, bufs_.send, n);
      sh_->handshake.seq.store(2 * s, std::memory_order_release);
    }
  }

 private:
  std::shared_ptr<PingpongShared> sh_;
};

class DirectPingpong final : public ShmOp {
 public:
  DirectPingpong(Comm& comm, const Args& args, Buffers& bufs) : ShmOp(comm, args, bufs) {
    sh_ = team_.make_shared<PingpongShared>(rank_, args.count, false);
    if (rank_ < 2) sh_->peers[static_cast<std::size_t>(rank_)] = Peer{bufs.send, bufs.recv};
    team_.barrier(rank_);
  }

  void run() override {
    if (rank_ > 1) return;
    const std::uint64_t s = next();
    const std::size_t n = args_.count;
    Line& mine = sh_->line[rank_];
    Line& other = sh_->line[1 - rank_];
    if (n <= kInlineElems) {
      // Thread 0 rewrites its line for s+1 only after thread 1 answered s, and vice versa.
      if (rank_ == 0) {
        copy_elems(mine.data, bufs_.send, n);
        mine.seq.store(s, std::memory_order_release);
        team_.wait_geq(other.seq, s);
        copy_elems(bufs_.recv, other.data, n);
      } else {
        team_.wait_geq(other.seq, s);
        copy_elems(bufs_.recv, other.data, n);
        copy_elems(mine.data, bufs_.send, n);
        mine.seq.store(s, std::memory_order_release);
      }
      return;
    }
    // Each side copies its own (cache-hot) send buffer straight into the other's receive buffer
    // once that one is posted: line[r].seq = 2s-1 when thread r is in run s (its receive buffer
    // is free), 2s when its message s has been delivered.
    Elem* peer_recv = sh_->peers[static_cast<std::size_t>(1 - rank_)].recv;
    if (rank_ == 1) mine.seq.store(2 * s - 1, std::memory_order_release);
    if (rank_ == 0) {
      team_.wait_geq(other.seq, 2 * s - 1);
      copy_elems(peer_recv, bufs_.send, n);
      mine.seq.store(2 * s, std::memory_order_release);
      team_.wait_geq(other.seq, 2 * s);
    } else {
      team_.wait_geq(other.seq, 2 * s);  // thread 0 is in run s too, so its buffer is posted
      copy_elems(peer_recv, bufs_.send, n);
      mine.seq.store(2 * s, std::memory_order_release);
    }
  }

 private:
  std::shared_ptr<PingpongShared> sh_;
};

}  // namespace

std::unique_ptr<OpInstance> make_pingpong(Scheme scheme, Comm& comm, const Args& args,
                                          Buffers& bufs) {
  if (comm.size() < 2)
    throw RuntimeError(fmt::format("shm pingpong needs 2 threads, got {}", comm.size()));
  if (scheme == Scheme::kStaged) return std::make_unique<StagedPingpong>(comm, args, bufs);
  return std::make_unique<DirectPingpong>(comm, args, bufs);
}

}  // namespace comops::shm
