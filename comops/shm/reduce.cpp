// Reduction (max or sum) to the root. Staged (the paper's): each thread folds its vector into a
// shared result inside a critical section, full barrier, the root copies out (two result buffers
// used alternately, so the next fold cannot overtake the copy-out). Direct: small vectors travel
// in flag lines to the root; large ones are cut into slices and every thread reduces its slice
// across all threads' send buffers straight into the root's receive buffer.
#include <algorithm>

#include "comops/shm/shm_op.hpp"

namespace comops::shm {
namespace {

constexpr std::size_t kSliceMinBytes = 16 << 10;  // below: the root alone reduces
constexpr std::size_t kSliceAlignElems = 16;      // slices start on 128-byte boundaries

struct ReduceShared {
  ReduceShared(int np, std::size_t staging_count)
      : lines(static_cast<std::size_t>(np)),
        done(static_cast<std::size_t>(np)),
        peers(static_cast<std::size_t>(np)),
        staging{SharedArray(staging_count), SharedArray(staging_count)} {}
  // Staged.
  SpinLock lock;
  int folded[2] = {0, 0};  // threads folded into staging[p] this iteration (under lock)
  // Direct.
  std::vector<Line> lines;    // small: non-root's vector s / root consumed s; large: arrived at s
  std::vector<SeqFlag> done;  // large: slice of iteration s reduced
  std::vector<Peer> peers;
  SharedArray staging[2];
};

class StagedReduce final : public ShmOp {
 public:
  StagedReduce(Comm& comm, const Args& args, Buffers& bufs) : ShmOp(comm, args, bufs) {
    sh_ = team_.make_shared<ReduceShared>(rank_, 0, args.count);
  }

  void run() override {
    const std::uint64_t s = next();
    const std::size_t p = s & 1;
    Elem* result = sh_->staging[p].data();
    sh_->lock.lock(team_);
    if (sh_->folded[p]++ == 0)
      copy_elems(result, bufs_.send, args_.count);
    else
      combine_into(result, bufs_.send, args_.count, args_.op);
    sh_->lock.unlock();
    team_.central_barrier(rank_);
    if (rank_ == args_.root) {
      copy_elems(bufs_.recv, result, args_.count);
      sh_->folded[p] = 0;  // read again only after everyone passed the next barrier
    }
  }

 private:
  std::shared_ptr<ReduceShared> sh_;
};

class DirectReduce final : public ShmOp {
 public:
  DirectReduce(Comm& comm, const Args& args, Buffers& bufs) : ShmOp(comm, args, bufs) {
    sh_ = team_.make_shared<ReduceShared>(rank_, np_, 0);
    publish(sh_->peers);
    // Slices of `per` elements (a multiple of kSliceAlignElems) to the first workers_ threads
    // counted from the root; below kSliceMinBytes the root is the only worker.
    const std::size_t n = args.count;
    const std::size_t want = n * kElemBytes >= kSliceMinBytes ? static_cast<std::size_t>(np_) : 1;
    std::size_t per = (n + want - 1) / want;
    per = std::max<std::size_t>(1, (per + kSliceAlignElems - 1) / kSliceAlignElems) *
          kSliceAlignElems;
    workers_ = static_cast<int>(std::max<std::size_t>(1, (n + per - 1) / per));
    const auto index = static_cast<std::size_t>((rank_ - args.root + np_) % np_);
    if (index < static_cast<std::size_t>(workers_)) {
      lo_ = std::min(n, index * per);
      hi_ = std::min(n, lo_ + per);
    }
    for (const Peer& peer : sh_->peers) srcs_.push_back(peer.send + lo_);
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
  // reduce their slice and signal; everyone leaves once no worker reads its buffers any more.
  void run_sliced(std::uint64_t s) {
    sh_->lines[static_cast<std::size_t>(rank_)].seq.store(s, std::memory_order_release);
    if (lo_ < hi_) {
      for (int i = 0; i < np_; ++i)
        if (i != rank_) team_.wait_geq(sh_->lines[static_cast<std::size_t>(i)].seq, s);
      reduce_into(sh_->peers[static_cast<std::size_t>(args_.root)].recv + lo_, srcs_.data(), np_,
                  hi_ - lo_, args_.op);
      sh_->done[static_cast<std::size_t>(rank_)].seq.store(s, std::memory_order_release);
    }
    for (int w = 0; w < workers_; ++w) {
      const int i = (args_.root + w) % np_;
      if (i != rank_) team_.wait_geq(sh_->done[static_cast<std::size_t>(i)].seq, s);
    }
  }

  std::shared_ptr<ReduceShared> sh_;
  int workers_ = 1;  // threads with a slice: the first workers_ ranks counted from the root
  std::size_t lo_ = 0, hi_ = 0;    // this thread's slice, elements
  std::vector<const Elem*> srcs_;  // every thread's send buffer from lo_ on
};

}  // namespace

std::unique_ptr<OpInstance> make_reduce(Scheme scheme, Comm& comm, const Args& args,
                                        Buffers& bufs) {
  if (scheme == Scheme::kStaged) return std::make_unique<StagedReduce>(comm, args, bufs);
  return std::make_unique<DirectReduce>(comm, args, bufs);
}

}  // namespace comops::shm
