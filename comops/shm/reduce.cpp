// Reduction (max or sum) to the root. Staged (the paper's): each thread folds its vector into a
// shared result inside a critical section, full barrier, the root copies out (StagedFold).
// Direct: small vectors travel in flag lines to the root; large ones are cut into slices and
// every thread reduces its slice across all threads' send buffers straight into the root's
// receive buffer (SlicedReduction).
#include "comops/shm/reduction.hpp"
#include "comops/shm/shm_op.hpp"

namespace comops::shm {
namespace {

struct ReduceShared {
  ReduceShared(Arena& arena, int np)
      : lines(arena, static_cast<std::size_t>(np)), sliced(arena, np) {}
  ShmArray<Line> lines;  // small: non-root's vector s / root consumed s
  SlicedReduction::Shared sliced;
};

class DirectReduce final : public InlineOrSliced<DirectReduce> {
 public:
  DirectReduce(Comm& comm, const Args& args, Buffers& bufs) : InlineOrSliced(comm, args, bufs) {
    sh_ = team_.make_shared<ReduceShared>(rank_, np_);
    publish();
    sliced_.emplace(sh_->sliced, peers_, team_, rank_, args.count, args.root);
  }

 private:
  friend class InlineOrSliced<DirectReduce>;  // runs the two paths

  void run_inline(std::uint64_t s) {
    const std::size_t n = args_.count;
    Line& root_line = sh_->lines[static_cast<std::size_t>(args_.root)];
    if (rank_ != args_.root) {
      Line& mine = sh_->lines[static_cast<std::size_t>(rank_)];
      team_.wait_geq(root_line.seq, s - 1);  // the root has consumed vector s-1
      copy_elems(mine.data, bufs_.send, n);
      mine.seq.store(s, std::memory_order_release);
      return;
    }
    copy_elems(bufs_.recv, bufs_.send, n);
    for (int i = 0; i < np_; ++i) {
      if (i == args_.root) continue;
      Line& line = sh_->lines[static_cast<std::size_t>(i)];
      team_.wait_geq(line.seq, s);
      combine_into(bufs_.recv, line.data, n, args_.op);
    }
    root_line.seq.store(s, std::memory_order_release);
  }

  // Everyone arrives (send ready, the root's receive buffer free); workers wait for all arrivals,
  // reduce their slice into the root's receive buffer and signal; everyone leaves once no worker
  // reads its buffers any more.
  void run_sliced(std::uint64_t s) {
    sliced_->reduce_my_slice(s, peers_[static_cast<std::size_t>(args_.root)].recv, args_.op);
    for (int w = 0; w < sliced_->workers(); ++w)
      if (sliced_->worker_rank(w) != rank_) sliced_->wait_done(w, s);
  }

  std::shared_ptr<ReduceShared> sh_;
};

// Only the root receives the reduced vector.
ScatterBlock root_part(const Args& args, int rank) {
  return {0, rank == args.root ? args.count : 0};
}

}  // namespace

OpTable reduce_ops(Scheme scheme) {
  return reduction_entries<DirectReduce>({OpKind::kReduceMax, OpKind::kReduceSum}, scheme,
                                         root_part);
}

}  // namespace comops::shm
