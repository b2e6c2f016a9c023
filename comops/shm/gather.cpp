// Gather to the root. Staged: every thread copies its block into a shared buffer, full barrier,
// the root copies the whole buffer out, full barrier. Direct: once the root has posted its
// receive buffer, every thread copies its block straight into it (small blocks travel in the
// senders' flag lines and the root copies them out).
#include "comops/shm/shm_op.hpp"

namespace comops::shm {
namespace {

struct GatherShared {
  GatherShared(Arena& arena, int np, std::size_t staging_count)
      : lines(arena, static_cast<std::size_t>(np)), staging(arena, staging_count) {}
  ShmArray<Line> lines;  // root: posted s (large) / consumed s (small); others: block s in
  SharedArray staging;
};

class StagedGather final : public ShmOp {
 public:
  StagedGather(Comm& comm, const Args& args, Buffers& bufs) : ShmOp(comm, args, bufs) {
    sh_ = team_.make_shared<GatherShared>(rank_, 0, args.count * static_cast<std::size_t>(np_));
  }

  void run() override {
    const std::size_t n = args_.count;
    Elem* staging = sh_->staging.data();
    copy_elems(staging + static_cast<std::size_t>(rank_) * n, bufs_.send, n);
    team_.central_barrier(rank_);
    if (rank_ == args_.root) copy_elems(bufs_.recv, staging, n * static_cast<std::size_t>(np_));
    team_.central_barrier(rank_);
  }

 private:
  std::shared_ptr<GatherShared> sh_;
};

class DirectGather final : public ShmOp {
 public:
  DirectGather(Comm& comm, const Args& args, Buffers& bufs) : ShmOp(comm, args, bufs) {
    sh_ = team_.make_shared<GatherShared>(rank_, np_, 0);
    publish();
  }

  void run() override {
    const std::uint64_t s = next();
    const std::size_t n = args_.count;
    const auto root = static_cast<std::size_t>(args_.root);
    Line& root_line = sh_->lines[root];
    Line& mine = sh_->lines[static_cast<std::size_t>(rank_)];
    if (rank_ == args_.root) {
      if (n > kInlineElems) root_line.seq.store(s, std::memory_order_release);  // posted
      copy_elems(bufs_.recv + root * n, bufs_.send, n);
      for (int i = 0; i < np_; ++i) {
        if (i == args_.root) continue;
        Line& line = sh_->lines[static_cast<std::size_t>(i)];
        team_.wait_geq(line.seq, s);
        if (n <= kInlineElems)
          copy_elems(bufs_.recv + static_cast<std::size_t>(i) * n, line.data, n);
      }
      if (n <= kInlineElems) root_line.seq.store(s, std::memory_order_release);  // consumed
      return;
    }
    if (n <= kInlineElems) {
      team_.wait_geq(root_line.seq, s - 1);  // the root has copied block s-1 out of the line
      copy_elems(mine.data, bufs_.send, n);
    } else {
      team_.wait_geq(root_line.seq, s);  // the root's receive buffer is posted
      copy_elems(peers_[root].recv + static_cast<std::size_t>(rank_) * n, bufs_.send, n);
    }
    mine.seq.store(s, std::memory_order_release);
  }

 private:
  std::shared_ptr<GatherShared> sh_;
};

std::unique_ptr<OpInstance> make_gather(Scheme scheme, Comm& comm, const Args& args,
                                        Buffers& bufs) {
  if (scheme == Scheme::kStaged) return std::make_unique<StagedGather>(comm, args, bufs);
  return std::make_unique<DirectGather>(comm, args, bufs);
}

}  // namespace

OpTable gather_ops(Scheme scheme) { return op_entries({OpKind::kGather}, make_gather, scheme); }

}  // namespace comops::shm
