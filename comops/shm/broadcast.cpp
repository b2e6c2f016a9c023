// Broadcast from the root. Staged (the paper's): root copies into a shared buffer, full barrier,
// the others copy out, full barrier. Direct: one copy from the root's send buffer into each
// receiver's buffer after the root's flag, acknowledged by the receiver; for large messages the
// root pushes the first 1/np of every receiver's copy while the receivers pull the rest (small
// messages travel in the root's flag line).
#include <algorithm>

#include "comops/shm/shm_op.hpp"

namespace comops::shm {
namespace {

struct BroadcastShared {
  BroadcastShared(Arena& arena, int np, std::size_t staging_count)
      : lines(arena, static_cast<std::size_t>(np)), staging(arena, staging_count) {}
  ShmArray<Line> lines;  // root: message s ready; others: message s copied
  SharedArray staging;
};

class StagedBroadcast final : public ShmOp {
 public:
  StagedBroadcast(Comm& comm, const Args& args, Buffers& bufs) : ShmOp(comm, args, bufs) {
    sh_ = team_.make_shared<BroadcastShared>(rank_, 0, args.count);
  }

  void run() override {
    Elem* staging = sh_->staging.data();
    if (rank_ == args_.root) copy_elems(staging, bufs_.send, args_.count);
    team_.central_barrier(rank_);
    if (rank_ != args_.root) copy_elems(bufs_.recv, staging, args_.count);
    team_.central_barrier(rank_);
  }

 private:
  std::shared_ptr<BroadcastShared> sh_;
};

class DirectBroadcast final : public ShmOp {
 public:
  DirectBroadcast(Comm& comm, const Args& args, Buffers& bufs) : ShmOp(comm, args, bufs) {
    sh_ = team_.make_shared<BroadcastShared>(rank_, np_, 0);
    publish();
    // Large messages: the root pushes the first 1/np of every receiver's message (128-byte
    // aligned) while the receivers pull the rest, so every thread copies about as much.
    const std::size_t n = args.count;
    if (np_ > 1 && args.bytes >= kSplitMinBytes)
      head_ = split_point(n, n / static_cast<std::size_t>(np_));
  }

  void run() override {
    const std::uint64_t s = next();
    if (args_.count <= kInlineElems)
      run_inline(s);
    else if (head_ == 0)
      run_pull(s);
    else
      run_split(s);
  }

 private:
  // Lines: the root's is s when message s is in its line; a receiver's is s once copied out.
  void run_inline(std::uint64_t s) {
    const std::size_t n = args_.count;
    Line& root_line = sh_->lines[static_cast<std::size_t>(args_.root)];
    if (rank_ == args_.root) {
      // Rewrite the line only once every receiver has copied message s-1 out of it.
      for (int i = 0; i < np_; ++i)
        if (i != args_.root) team_.wait_geq(sh_->lines[static_cast<std::size_t>(i)].seq, s - 1);
      copy_elems(root_line.data, bufs_.send, n);
      root_line.seq.store(s, std::memory_order_release);
      return;
    }
    team_.wait_geq(root_line.seq, s);
    copy_elems(bufs_.recv, root_line.data, n);
    sh_->lines[static_cast<std::size_t>(rank_)].seq.store(s, std::memory_order_release);
  }

  // Every receiver copies from the root's send buffer. Lines: the root's is s when its send
  // buffer holds message s; a receiver's is s once it has read it.
  void run_pull(std::uint64_t s) {
    Line& root_line = sh_->lines[static_cast<std::size_t>(args_.root)];
    if (rank_ == args_.root) {
      root_line.seq.store(s, std::memory_order_release);
      wait_receivers(s);  // return only when nobody reads the send buffer any more
      return;
    }
    team_.wait_geq(root_line.seq, s);
    copy_elems(bufs_.recv, peers_[static_cast<std::size_t>(args_.root)].send, args_.count);
    sh_->lines[static_cast<std::size_t>(rank_)].seq.store(s, std::memory_order_release);
  }

  // The root pushes [0, head_) into each receiver once it is in run s; each receiver pulls
  // [head_, n). Lines: the root's is 2s-1 when its send buffer holds message s, 2s when every
  // head is pushed; a receiver's is 2s-1 when its receive buffer is free for s, 2s once it has
  // read its tail.
  void run_split(std::uint64_t s) {
    const std::size_t n = args_.count;
    const auto root = static_cast<std::size_t>(args_.root);
    Line& root_line = sh_->lines[root];
    if (rank_ == args_.root) {
      root_line.seq.store(2 * s - 1, std::memory_order_release);
      for (int i = 0; i < np_; ++i) {
        if (i == args_.root) continue;
        team_.wait_geq(sh_->lines[static_cast<std::size_t>(i)].seq, 2 * s - 1);
        copy_elems(peers_[static_cast<std::size_t>(i)].recv, bufs_.send, head_);
      }
      root_line.seq.store(2 * s, std::memory_order_release);
      wait_receivers(2 * s);
      return;
    }
    Line& mine = sh_->lines[static_cast<std::size_t>(rank_)];
    mine.seq.store(2 * s - 1, std::memory_order_release);
    team_.wait_geq(root_line.seq, 2 * s - 1);
    copy_elems(bufs_.recv + head_, peers_[root].send + head_, n - head_);
    mine.seq.store(2 * s, std::memory_order_release);
    team_.wait_geq(root_line.seq, 2 * s);
  }

  void wait_receivers(std::uint64_t value) {
    for (int i = 0; i < np_; ++i)
      if (i != args_.root) team_.wait_geq(sh_->lines[static_cast<std::size_t>(i)].seq, value);
  }

  std::shared_ptr<BroadcastShared> sh_;
  std::size_t head_ = 0;  // elements the root pushes into every receiver; 0: receivers pull all
};

std::unique_ptr<OpInstance> make_broadcast(Scheme scheme, Comm& comm, const Args& args,
                                           Buffers& bufs) {
  if (scheme == Scheme::kStaged) return std::make_unique<StagedBroadcast>(comm, args, bufs);
  return std::make_unique<DirectBroadcast>(comm, args, bufs);
}

}  // namespace

OpTable broadcast_ops(Scheme scheme) {
  return op_entries({OpKind::kBroadcast}, make_broadcast, scheme);
}

}  // namespace comops::shm
