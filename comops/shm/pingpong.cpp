// Ping-pong between threads 0 and 1. Staged: both directions through one shared buffer with a
// flag handshake. Direct: one copy from the sender's buffer into the receiver's posted buffer,
// made by the sender alone for small messages and shared by both sides for large ones (the
// sender pushes the head while the receiver pulls the tail); messages of up to kInlineElems
// travel inside the flag's cache line.
#include <fmt/format.h>

#include <algorithm>

#include "comops/shm/shm_op.hpp"

namespace comops::shm {
namespace {

struct PingpongShared {
  PingpongShared(Arena& arena, std::size_t count, bool staged)
      : staging(arena, staged ? count : 0) {}
  SeqFlag handshake;  // staged: 2s-1 when 0 -> 1 is staged, 2s when 1 -> 0 is
  Line line[2];       // direct: inline messages in line[0]; larger ones: thread r's progress
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
    publish();
    // Large messages: the sender pushes the first half (128-byte aligned), the receiver pulls
    // the rest at the same time; small ones: the sender pushes all from its cache-hot buffer.
    split_ = args.bytes < kSplitMinBytes ? args.count : split_point(args.count, args.count / 2);
  }

  void run() override {
    if (rank_ > 1) return;
    const std::uint64_t s = next();
    const std::size_t n = args_.count;
    if (n <= kInlineElems) {
      // Both directions through one line, written in turn: seq 2s-1 when it holds thread 0's
      // message s, 2s when thread 1's answer (one line changing hands is what the cache-line
      // round trip measures; a line per writer costs about twice as much).
      Line& line = sh_->line[0];
      if (rank_ == 0) {
        copy_elems(line.data, bufs_.send, n);
        line.seq.store(2 * s - 1, std::memory_order_release);
        team_.wait_geq(line.seq, 2 * s);
        copy_elems(bufs_.recv, line.data, n);
      } else {
        team_.wait_geq(line.seq, 2 * s - 1);
        copy_elems(bufs_.recv, line.data, n);
        copy_elems(line.data, bufs_.send, n);
        line.seq.store(2 * s, std::memory_order_release);
      }
      return;
    }
    if (split_ == n) {
      run_push(s);
      return;
    }
    // One copy per direction, shared by both sides: the sender pushes the head [0, split_) of
    // its send buffer into the receiver's buffer while the receiver pulls the tail [split_, n).
    // line[r].seq moves through b+1, b+2, b+3 in run s (b = 4(s-1)):
    //   thread 0: b+1 in run s (recv free, send published), b+2 ping head pushed,
    //             b+3 pong tail pulled (done reading thread 1's send);
    //   thread 1: b+1 in run s, b+2 ping received whole (done reading thread 0's send; its own
    //             send published), b+3 pong head pushed.
    Line& mine = sh_->line[rank_];
    Line& other = sh_->line[1 - rank_];
    const std::uint64_t b = 4 * (s - 1);
    const Peer& peer = peers_[static_cast<std::size_t>(1 - rank_)];
    const std::size_t tail = n - split_;
    mine.seq.store(b + 1, std::memory_order_release);
    team_.wait_geq(other.seq, b + 1);
    if (rank_ == 0) {
      copy_elems(peer.recv, bufs_.send, split_);
      mine.seq.store(b + 2, std::memory_order_release);
      team_.wait_geq(other.seq, b + 2);
      copy_elems(bufs_.recv + split_, peer.send + split_, tail);
      mine.seq.store(b + 3, std::memory_order_release);
      team_.wait_geq(other.seq, b + 3);
    } else {
      copy_elems(bufs_.recv + split_, peer.send + split_, tail);
      team_.wait_geq(other.seq, b + 2);
      mine.seq.store(b + 2, std::memory_order_release);
      copy_elems(peer.recv, bufs_.send, split_);
      mine.seq.store(b + 3, std::memory_order_release);
      team_.wait_geq(other.seq, b + 3);
    }
  }

 private:
  // Each side copies its own (cache-hot) send buffer straight into the other's receive buffer
  // once that one is posted. One line, written in turn: seq is 3s-2 when thread 1 is in run s
  // (its receive buffer is free), 3s-1 when thread 0's message s is delivered, 3s when thread
  // 1's answer is (thread 0 is in run s until it sees 3s, so its receive buffer is posted).
  void run_push(std::uint64_t s) {
    const std::size_t n = args_.count;
    std::atomic<std::uint64_t>& seq = sh_->line[0].seq;
    Elem* peer_recv = peers_[static_cast<std::size_t>(1 - rank_)].recv;
    if (rank_ == 0) {
      team_.wait_geq(seq, 3 * s - 2);
      copy_elems(peer_recv, bufs_.send, n);
      seq.store(3 * s - 1, std::memory_order_release);
      team_.wait_geq(seq, 3 * s);
    } else {
      seq.store(3 * s - 2, std::memory_order_release);
      team_.wait_geq(seq, 3 * s - 1);
      copy_elems(peer_recv, bufs_.send, n);
      seq.store(3 * s, std::memory_order_release);
    }
  }

  std::shared_ptr<PingpongShared> sh_;
  std::size_t split_ = 0;  // elements the sender pushes; the receiver pulls the rest
};

std::unique_ptr<OpInstance> make_pingpong(Scheme scheme, Comm& comm, const Args& args,
                                          Buffers& bufs) {
  if (comm.size() < 2)
    throw RuntimeError(fmt::format("shm pingpong needs 2 threads, got {}", comm.size()));
  if (scheme == Scheme::kStaged) return std::make_unique<StagedPingpong>(comm, args, bufs);
  return std::make_unique<DirectPingpong>(comm, args, bufs);
}

}  // namespace

OpTable pingpong_ops(Scheme scheme) {
  return op_entries({OpKind::kPingpong}, make_pingpong, scheme);
}

}  // namespace comops::shm
