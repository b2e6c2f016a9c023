// Broadcast from the root. Staged (the paper's): root copies into a shared buffer, full barrier,
// the others copy out, full barrier. Direct: every receiver copies straight from the root's send
// buffer after the root's flag and acknowledges (small messages travel in the root's flag line).
#include "comops/shm/shm_op.hpp"

namespace comops::shm {
namespace {

struct BroadcastShared {
  BroadcastShared(int np, std::size_t staging_count)
      : lines(static_cast<std::size_t>(np)),
        peers(static_cast<std::size_t>(np)),
        staging(staging_count) {}
  std::vector<Line> lines;  // root: message s ready; others: message s copied
  std::vector<Peer> peers;
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
    publish(sh_->peers);
  }

  void run() override {
    const std::uint64_t s = next();
    const std::size_t n = args_.count;
    const auto root = static_cast<std::size_t>(args_.root);
    Line& root_line = sh_->lines[root];
    if (rank_ == args_.root) {
      if (n <= kInlineElems) {
        // Rewrite the line only once every receiver has copied message s-1 out of it.
        for (int i = 0; i < np_; ++i)
          if (i != args_.root) team_.wait_geq(sh_->lines[static_cast<std::size_t>(i)].seq, s - 1);
        copy_elems(root_line.data, bufs_.send, n);
        root_line.seq.store(s, std::memory_order_release);
      } else {
        // Return only when nobody reads the send buffer any more.
        root_line.seq.store(s, std::memory_order_release);
        for (int i = 0; i < np_; ++i)
          if (i != args_.root) team_.wait_geq(sh_->lines[static_cast<std::size_t>(i)].seq, s);
      }
      return;
    }
    team_.wait_geq(root_line.seq, s);
    copy_elems(bufs_.recv, n <= kInlineElems ? root_line.data : sh_->peers[root].send, n);
    sh_->lines[static_cast<std::size_t>(rank_)].seq.store(s, std::memory_order_release);
  }

 private:
  std::shared_ptr<BroadcastShared> sh_;
};

}  // namespace

std::unique_ptr<OpInstance> make_broadcast(Scheme scheme, Comm& comm, const Args& args,
                                           Buffers& bufs) {
  if (scheme == Scheme::kStaged) return std::make_unique<StagedBroadcast>(comm, args, bufs);
  return std::make_unique<DirectBroadcast>(comm, args, bufs);
}

}  // namespace comops::shm
