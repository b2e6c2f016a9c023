// Scatter from the root. Staged: the root copies its whole buffer into a shared buffer, full
// barrier, every thread copies its block out, full barrier. Direct: every thread copies its
// block straight from the root's send buffer after the root's flag and acknowledges (small
// blocks travel in per-receiver lines the root writes).
#include "comops/shm/shm_op.hpp"

namespace comops::shm {
namespace {

struct ScatterShared {
  ScatterShared(Arena& arena, int np, std::size_t staging_count)
      : lines(arena, static_cast<std::size_t>(np)),
        out(arena, static_cast<std::size_t>(np)),
        staging(arena, staging_count) {}
  ShmArray<Line> lines;  // root: message s ready (large); others: block s copied
  ShmArray<Line> out;    // small: written by the root, block s for thread i
  SharedArray staging;
};

class StagedScatter final : public ShmOp {
 public:
  StagedScatter(Comm& comm, const Args& args, Buffers& bufs) : ShmOp(comm, args, bufs) {
    sh_ = team_.make_shared<ScatterShared>(rank_, 0, args.count * static_cast<std::size_t>(np_));
  }

  void run() override {
    const std::size_t n = args_.count;
    Elem* staging = sh_->staging.data();
    if (rank_ == args_.root) copy_elems(staging, bufs_.send, n * static_cast<std::size_t>(np_));
    team_.central_barrier(rank_);
    copy_elems(bufs_.recv, staging + static_cast<std::size_t>(rank_) * n, n);
    team_.central_barrier(rank_);
  }

 private:
  std::shared_ptr<ScatterShared> sh_;
};

class DirectScatter final : public ShmOp {
 public:
  DirectScatter(Comm& comm, const Args& args, Buffers& bufs) : ShmOp(comm, args, bufs) {
    sh_ = team_.make_shared<ScatterShared>(rank_, np_, 0);
    publish();
  }

  void run() override {
    const std::uint64_t s = next();
    const std::size_t n = args_.count;
    const auto root = static_cast<std::size_t>(args_.root);
    const auto me = static_cast<std::size_t>(rank_);
    if (rank_ == args_.root) {
      if (n <= kInlineElems) {
        for (int i = 0; i < np_; ++i) {
          if (i == args_.root) continue;
          const auto ui = static_cast<std::size_t>(i);
          team_.wait_geq(sh_->lines[ui].seq, s - 1);  // thread i has copied block s-1 out
          copy_elems(sh_->out[ui].data, bufs_.send + ui * n, n);
          sh_->out[ui].seq.store(s, std::memory_order_release);
        }
        copy_elems(bufs_.recv, bufs_.send + root * n, n);
      } else {
        sh_->lines[root].seq.store(s, std::memory_order_release);
        copy_elems(bufs_.recv, bufs_.send + root * n, n);
        for (int i = 0; i < np_; ++i)  // return only when nobody reads the send buffer
          if (i != args_.root) team_.wait_geq(sh_->lines[static_cast<std::size_t>(i)].seq, s);
      }
      return;
    }
    if (n <= kInlineElems) {
      team_.wait_geq(sh_->out[me].seq, s);
      copy_elems(bufs_.recv, sh_->out[me].data, n);
    } else {
      team_.wait_geq(sh_->lines[root].seq, s);
      copy_elems(bufs_.recv, peers_[root].send + me * n, n);
    }
    sh_->lines[me].seq.store(s, std::memory_order_release);
  }

 private:
  std::shared_ptr<ScatterShared> sh_;
};

std::unique_ptr<OpInstance> make_scatter(Scheme scheme, Comm& comm, const Args& args,
                                         Buffers& bufs) {
  if (scheme == Scheme::kStaged) return std::make_unique<StagedScatter>(comm, args, bufs);
  return std::make_unique<DirectScatter>(comm, args, bufs);
}

}  // namespace

OpTable scatter_ops(Scheme scheme) { return op_entries({OpKind::kScatter}, make_scatter, scheme); }

}  // namespace comops::shm
