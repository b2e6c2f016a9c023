// Reduce-scatter (max or sum): thread i receives block i of the reduction, split as
// osu_reduce_scatter splits it (reduce_scatter_block in comops/op.hpp). Staged (the paper's
// scheme, as reduce): each thread folds its vector into a shared result inside a critical
// section, full barrier, every thread copies its block out (StagedFold). Direct: once every
// thread has arrived, each reduces its own block straight from all threads' send buffers into its
// receive buffer, then waits until every thread has done so, so no send buffer is still read
// when the op returns.
#include "comops/shm/reduction.hpp"
#include "comops/shm/shm_op.hpp"

namespace comops::shm {
namespace {

class DirectReduceScatter final : public ShmOp {
 public:
  DirectReduceScatter(Comm& comm, const Args& args, Buffers& bufs)
      : ShmOp(comm, args, bufs), mine_(reduce_scatter_block(args.count, args.np, rank_)) {
    sh_ = team_.make_shared<SlicedReduction::Shared>(rank_, np_);
    publish();
    for (const Peer& peer : peers_) srcs_.push_back(peer.send + mine_.offset);
  }

  void run() override {
    const std::uint64_t s = next();
    announce_and_wait(sh_->arrived, s);  // every send buffer holds iteration s
    reduce_into(bufs_.recv, srcs_.data(), np_, mine_.count, args_.op);
    announce_and_wait(sh_->done, s);  // nobody reads this thread's send buffer any more
  }

 private:
  void announce_and_wait(ShmArray<SeqFlag>& flags, std::uint64_t s) {
    flags[static_cast<std::size_t>(rank_)].seq.store(s, std::memory_order_release);
    for (int i = 0; i < np_; ++i)
      if (i != rank_) team_.wait_geq(flags[static_cast<std::size_t>(i)].seq, s);
  }

  ScatterBlock mine_;
  std::shared_ptr<SlicedReduction::Shared> sh_;
  std::vector<const Elem*> srcs_;  // every thread's send buffer at this thread's block
};

// Thread i receives block i.
ScatterBlock own_block(const Args& args, int rank) {
  return reduce_scatter_block(args.count, args.np, rank);
}

}  // namespace

OpTable reduce_scatter_ops(Scheme scheme) {
  return reduction_entries<DirectReduceScatter>(
      {OpKind::kReduceScatterMax, OpKind::kReduceScatterSum}, scheme, own_block);
}

}  // namespace comops::shm
