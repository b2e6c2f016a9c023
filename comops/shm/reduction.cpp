// The staged fold and the sliced reduction that the shm reduce and allreduce share.
#include "comops/shm/reduction.hpp"

#include <algorithm>

namespace comops::shm {
namespace {

constexpr std::size_t kSliceMinBytes = 16 << 10;  // below: the first thread alone reduces
constexpr std::size_t kSliceAlignElems = 16;      // slices start on 128-byte boundaries

}  // namespace

StagedFold::StagedFold(Arena& arena, int np, std::size_t count)
    : np_(np), count_(count), staging_{SharedArray(arena, count), SharedArray(arena, count)} {}

const Elem* StagedFold::fold(Team& team, int rank, std::uint64_t s, const Elem* send, OpKind op) {
  const std::size_t p = s & 1;
  Elem* result = staging_[p].data();
  lock_.lock(team);
  if (folded_[p] == 0)
    copy_elems(result, send, count_);
  else
    combine_into(result, send, count_, op);
  if (++folded_[p] == np_) folded_[p] = 0;  // the last one: buffer p starts afresh at s + 2
  lock_.unlock();
  team.central_barrier(rank);
  return result;
}

SlicedReduction::Shared::Shared(Arena& arena, int np)
    : arrived(arena, static_cast<std::size_t>(np)), done(arena, static_cast<std::size_t>(np)) {}

SlicedReduction::SlicedReduction(Shared& sh, const std::vector<Peer>& peers, const Team& team,
                                 int rank, std::size_t n, int first)
    : sh_(sh), team_(team), rank_(rank), np_(team.size()), first_(first), n_(n) {
  const std::size_t want = n * kElemBytes >= kSliceMinBytes ? static_cast<std::size_t>(np_) : 1;
  per_ = (n + want - 1) / want;
  per_ =
      std::max<std::size_t>(1, (per_ + kSliceAlignElems - 1) / kSliceAlignElems) * kSliceAlignElems;
  workers_ = static_cast<int>(std::max<std::size_t>(1, (n + per_ - 1) / per_));
  const int index = (rank - first + np_) % np_;
  if (index < workers_) my_worker_ = index;
  const std::size_t from = my_worker_ < 0 ? 0 : lo(my_worker_);
  for (const Peer& peer : peers) srcs_.push_back(peer.send + from);
}

std::size_t SlicedReduction::lo(int w) const {
  return std::min(n_, static_cast<std::size_t>(w) * per_);
}

std::size_t SlicedReduction::hi(int w) const { return std::min(n_, lo(w) + per_); }

void SlicedReduction::reduce_my_slice(std::uint64_t s, Elem* dst, OpKind op) {
  sh_.arrived[static_cast<std::size_t>(rank_)].seq.store(s, std::memory_order_release);
  if (my_worker_ < 0) return;
  for (int i = 0; i < np_; ++i)
    if (i != rank_) team_.wait_geq(sh_.arrived[static_cast<std::size_t>(i)].seq, s);
  const std::size_t lo = this->lo(my_worker_);
  reduce_into(dst + lo, srcs_.data(), np_, hi(my_worker_) - lo, op);
  sh_.done[static_cast<std::size_t>(rank_)].seq.store(s, std::memory_order_release);
}

void SlicedReduction::wait_done(int w, std::uint64_t s) const {
  team_.wait_geq(sh_.done[static_cast<std::size_t>(worker_rank(w))].seq, s);
}

StagedReduction::StagedReduction(Comm& comm, const Args& args, Buffers& bufs, ScatterBlock part)
    : ShmOp(comm, args, bufs), part_(part) {
  fold_ = team_.make_shared<StagedFold>(rank_, np_, args.count);
}

void StagedReduction::run() {
  const Elem* result = fold_->fold(team_, rank_, next(), bufs_.send, args_.op);
  if (part_.count > 0) copy_elems(bufs_.recv, result + part_.offset, part_.count);
}

}  // namespace comops::shm
