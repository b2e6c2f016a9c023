// The reduction that swcc reduce, allreduce and reduce-scatter share, a shared-memory program on
// the DSM: the root seeds a shared vector in its own memory, DSM barrier, every other rank folds
// its vector in under a DSM lock, DSM barrier.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "comops/op.hpp"
#include "comops/swcc/dsm_op.hpp"
#include "swcc/swcc.hpp"

namespace comops::swcc {

/// Collective: reduces every rank's send (n elements) into acc, a vector in root's memory, with
/// max (max = true) or sum; tmp is n elements of scratch. Returns after the DSM barrier that
/// ends the fold, when acc holds the result on every rank's view.
template <std::size_t B>
void fold_into(Dsm<B>& d, global_ptr<Elem> acc, int root, const Elem* send, std::size_t n, bool max,
               std::vector<Elem>& tmp) {
  if (d.rank() == root) d.write_bulk(acc, send, n);
  d.barrier();
  if (d.rank() != root) {
    d.lock(0);
    d.read_bulk(tmp.data(), acc, n);
    for (std::size_t i = 0; i < n; ++i) tmp[i] = max ? std::max(tmp[i], send[i]) : tmp[i] + send[i];
    d.write_bulk(acc, tmp.data(), n);
    d.unlock(0);
  }
  d.barrier();
}

/// The shape of allreduce and reduce-scatter: fold_into a shared vector in participant 0's
/// memory, then this rank reads its part of the result (`mine`: the whole vector for an
/// allreduce, its block for a reduce-scatter) with a bulk get, then a closing DSM barrier, so
/// that the next operation's seeding put cannot overtake this one's reads.
template <std::size_t B>
class FoldAndRead : public SharedArrayOp<B> {
  using Base = SharedArrayOp<B>;

 public:
  FoldAndRead(const OpConfig& cfg, Comm& comm, const Args& args, Buffers& bufs, ScatterBlock mine)
      : Base(cfg, comm, args, bufs, segment_for(args.bytes, 1), args.count),
        max_(reduction_of(args.op) == Reduce::kMax),
        mine_(mine),
        tmp_(args.count) {}

  void run() override {
    constexpr int kHome = 0;  // the participant whose memory holds the shared vector
    const auto acc = this->buf_.on(kHome);
    fold_into(this->d_, acc, kHome, this->bufs_.send, this->count_, max_, tmp_);
    if (mine_.count > 0) this->d_.read_bulk(this->bufs_.recv, acc + mine_.offset, mine_.count);
    this->d_.barrier();  // the next seeding put must not overtake these reads
  }

 private:
  bool max_;
  ScatterBlock mine_;
  std::vector<Elem> tmp_;
};

}  // namespace comops::swcc
