// What the shm reductions (reduce, allreduce, reduce-scatter) share: the staged scheme's fold of
// every thread's vector into a shared buffer inside a critical section and the staged op built on
// it, the direct scheme's sliced parallel reduction, and the op table entries of a reduction.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <vector>

#include "comops/shm/shm_op.hpp"

namespace comops::shm {

/// Staged (the paper's scheme): every thread folds its vector into a shared buffer inside a
/// critical section, then a full (central) barrier. Two buffers are used alternately, so the
/// fold of the next iteration cannot overtake a read of this one's result.
class StagedFold {
 public:
  StagedFold(Arena& arena, int np, std::size_t count);  ///< np threads, count elements each

  /// Iteration s (1, 2, ... on every thread): folds send into the iteration's buffer and passes
  /// the central barrier. Returns the buffer, which then holds the reduction over every thread;
  /// read it before this thread's next fold.
  const Elem* fold(Team& team, int rank, std::uint64_t s, const Elem* send, OpKind op);

 private:
  int np_;
  std::size_t count_;
  SpinLock lock_;
  int folded_[2] = {0, 0};  // threads folded into staging_[p] this iteration (under lock_)
  SharedArray staging_[2];
};

/// Direct, for vectors longer than a flag line holds: the vector is cut into slices (multiples
/// of 128 bytes) for the first workers() threads counted from a first thread (the root); below
/// 16 KiB that thread alone is the worker. Each worker reduces its slice across every thread's
/// send buffer straight into a destination.
class SlicedReduction {
 public:
  /// The team's shared state of one sliced reduction.
  struct Shared {
    Shared(Arena& arena, int np);
    ShmArray<SeqFlag> arrived;  // thread i entered iteration s (its send buffer holds it)
    ShmArray<SeqFlag> done;     // worker i reduced its slice of iteration s
  };

  /// This thread's part, given every thread's published buffers (ShmOp::publish); vectors of n
  /// elements, slices counted from thread `first`.
  SlicedReduction(Shared& sh, const std::vector<Peer>& peers, const Team& team, int rank,
                  std::size_t n, int first);

  /// Iteration s: announces this thread's arrival; a worker then waits for every thread's
  /// arrival, reduces its slice into dst (n elements, at the slice's offset) and marks it done.
  /// A thread must not read what iteration s-1 wrote into dst after this call.
  void reduce_my_slice(std::uint64_t s, Elem* dst, OpKind op);

  int workers() const { return workers_; }
  int worker_rank(int w) const { return (first_ + w) % np_; }  ///< the thread of worker w
  std::size_t lo(int w) const;  ///< worker w's slice: elements [lo, hi)
  std::size_t hi(int w) const;
  /// Waits until worker w has reduced its slice of iteration s.
  void wait_done(int w, std::uint64_t s) const;

 private:
  Shared& sh_;
  const Team& team_;
  int rank_, np_, first_;
  std::size_t n_;
  std::size_t per_ = 0;  // elements per slice
  int workers_ = 1;
  int my_worker_ = -1;             // this thread's worker index, -1: no slice
  std::vector<const Elem*> srcs_;  // every thread's send buffer from this thread's slice on
};

/// The direct scheme's op base of reduce and allreduce: a run of iteration s is Op::run_inline(s)
/// for vectors of up to kInlineElems (flag lines), Op::run_sliced(s) for larger ones
/// (SlicedReduction, built by Op once the buffers are published).
template <class Op>
class InlineOrSliced : public ShmOp {
 public:
  void run() override {
    Op& op = static_cast<Op&>(*this);
    const std::uint64_t s = next();
    if (args_.count <= kInlineElems)
      op.run_inline(s);
    else
      op.run_sliced(s);
  }

 protected:
  using ShmOp::ShmOp;
  std::optional<SlicedReduction> sliced_;
};

/// The staged scheme of every reduction: each thread folds its vector into a shared result
/// (StagedFold), then copies its part of the result into its receive buffer.
class StagedReduction final : public ShmOp {
 public:
  /// `part`: the elements of the result this thread receives (count 0: none, as a reduce's
  /// non-root).
  StagedReduction(Comm& comm, const Args& args, Buffers& bufs, ScatterBlock part);
  void run() override;

 private:
  ScatterBlock part_;
  std::shared_ptr<StagedFold> fold_;
};

/// Which part of the reduced vector of `args` participant `rank` receives.
using ReductionPart = ScatterBlock (*)(const Args& args, int rank);

/// A reduction op file's table entries for `kinds`: StagedReduction with `part` under the staged
/// scheme, `Direct` (constructed from the comm, args and buffers) under the direct one.
template <class Direct>
OpTable reduction_entries(std::initializer_list<OpKind> kinds, Scheme scheme, ReductionPart part) {
  return op_entries(kinds, [scheme, part](Comm& comm, const Args& args, Buffers& bufs) {
    std::unique_ptr<OpInstance> op;
    if (scheme == Scheme::kStaged)
      op = std::make_unique<StagedReduction>(comm, args, bufs, part(args, comm.rank()));
    else
      op = std::make_unique<Direct>(comm, args, bufs);
    return op;
  });
}

}  // namespace comops::shm
