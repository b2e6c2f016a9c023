// Reduction (max or sum) to the root. Staged (the paper's): each thread folds its vector into a
// shared result inside a critical section, full barrier, the root copies out (StagedFold).
// Direct: small vectors travel in flag lines to the root; large ones are cut into slices and
// every thread reduces its slice across all threads' send buffers straight into the root's
// receive buffer (SlicedReduction).
#include <optional>

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

class StagedReduce final : public ShmOp {
 public:
  StagedReduce(Comm& comm, const Args& args, Buffers& bufs) : ShmOp(comm, args, bufs) {
    fold_ = team_.make_shared<StagedFold>(rank_, np_, args.count);
  }

  void run() override {
    const Elem* result = fold_->fold(team_, rank_, next(), bufs_.send, args_.op);
    if (rank_ == args_.root) copy_elems(bufs_.recv, result, args_.count);
  }

 private:
  std::shared_ptr<StagedFold> fold_;
};

class DirectReduce final : public ShmOp {
 public:
  DirectReduce(Comm& comm, const Args& args, Buffers& bufs) : ShmOp(comm, args, bufs) {
    sh_ = team_.make_shared<ReduceShared>(rank_, np_);
    publish();
    sliced_.emplace(sh_->sliced, peers_, team_, rank_, args.count, args.root);
  }

  void run() override {
    const std::uint64_t s = next();
    if (args_.count <= kInlineElems)
      run_inline(s);
    else
      run_sliced(s);
  }

 private:
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
  std::optional<SlicedReduction> sliced_;  // built once the buffers are published
};

std::unique_ptr<OpInstance> make_reduce(Scheme scheme, Comm& comm, const Args& args,
                                        Buffers& bufs) {
  if (scheme == Scheme::kStaged) return std::make_unique<StagedReduce>(comm, args, bufs);
  return std::make_unique<DirectReduce>(comm, args, bufs);
}

}  // namespace

OpTable reduce_ops(Scheme scheme) {
  return op_entries({OpKind::kReduceMax, OpKind::kReduceSum}, make_reduce, scheme);
}

}  // namespace comops::shm
