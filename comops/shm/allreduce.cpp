// Allreduce (max or sum): every thread receives the reduction. Staged (the paper's scheme, as
// reduce): each thread folds its vector into a shared result inside a critical section, full
// barrier, every thread copies the result out. Direct: small vectors travel in flag lines
// (two sets used alternately) and every thread reduces all of them itself; large ones are cut
// into slices, every worker reduces its slice across all threads' send buffers into a shared
// result as reduce's direct path does, and every thread copies each slice out once it is done.
#include "comops/shm/reduction.hpp"
#include "comops/shm/shm_op.hpp"

namespace comops::shm {
namespace {

struct AllreduceShared {
  AllreduceShared(Arena& arena, int np, std::size_t result_count)
      : lines{ShmArray<Line>(arena, static_cast<std::size_t>(np)),
              ShmArray<Line>(arena, static_cast<std::size_t>(np))},
        sliced(arena, np),
        result(arena, result_count) {}
  // Small: thread i's vector of iteration s in lines[s & 1][i]. Thread i writes that line again
  // at s + 2 only after it has seen every thread's line of s + 1, which each thread writes only
  // after it has read all lines of s.
  ShmArray<Line> lines[2];
  SlicedReduction::Shared sliced;
  // Large: the reduced vector. A worker writes its slice of s + 1 only after every thread
  // arrived at s + 1, which each does only after it has copied s out.
  SharedArray result;
};

class DirectAllreduce final : public InlineOrSliced<DirectAllreduce> {
 public:
  DirectAllreduce(Comm& comm, const Args& args, Buffers& bufs) : InlineOrSliced(comm, args, bufs) {
    sh_ =
        team_.make_shared<AllreduceShared>(rank_, np_, args.count <= kInlineElems ? 0 : args.count);
    publish();
    sliced_.emplace(sh_->sliced, peers_, team_, rank_, args.count, 0);
  }

 private:
  friend class InlineOrSliced<DirectAllreduce>;  // runs the two paths

  void run_inline(std::uint64_t s) {
    const std::size_t n = args_.count;
    ShmArray<Line>& lines = sh_->lines[s & 1];
    Line& mine = lines[static_cast<std::size_t>(rank_)];
    copy_elems(mine.data, bufs_.send, n);
    mine.seq.store(s, std::memory_order_release);
    copy_elems(bufs_.recv, bufs_.send, n);
    for (int i = 0; i < np_; ++i) {
      if (i == rank_) continue;
      Line& line = lines[static_cast<std::size_t>(i)];
      team_.wait_geq(line.seq, s);
      combine_into(bufs_.recv, line.data, n, args_.op);
    }
  }

  void run_sliced(std::uint64_t s) {
    Elem* result = sh_->result.data();
    sliced_->reduce_my_slice(s, result, args_.op);
    for (int w = 0; w < sliced_->workers(); ++w) {
      if (sliced_->worker_rank(w) != rank_) sliced_->wait_done(w, s);
      const std::size_t lo = sliced_->lo(w);
      copy_elems(bufs_.recv + lo, result + lo, sliced_->hi(w) - lo);
    }
  }

  std::shared_ptr<AllreduceShared> sh_;
};

// Every thread receives the whole reduced vector.
ScatterBlock whole(const Args& args, int) { return {0, args.count}; }

}  // namespace

OpTable allreduce_ops(Scheme scheme) {
  return reduction_entries<DirectAllreduce>({OpKind::kAllreduceMax, OpKind::kAllreduceSum}, scheme,
                                            whole);
}

}  // namespace comops::shm
