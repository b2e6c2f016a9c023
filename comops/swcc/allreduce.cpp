// swcc allreduce-max / allreduce-sum: the fold of reduce (fold_into: participant 0 seeds a shared
// vector in its memory, DSM barrier, every other rank folds its input in under a DSM lock, DSM
// barrier), then every rank reads the whole result with a bulk get, then a closing DSM barrier
// (FoldAndRead in comops/swcc/fold.hpp).
#include "comops/swcc/dsm_op.hpp"
#include "comops/swcc/fold.hpp"

namespace comops::swcc {
namespace {

template <std::size_t B>
class Allreduce final : public FoldAndRead<B> {
 public:
  Allreduce(const OpConfig& cfg, Comm& comm, const Args& args, Buffers& bufs)
      : FoldAndRead<B>(cfg, comm, args, bufs, {0, args.count}) {}
};

std::unique_ptr<OpInstance> make_allreduce(const OpConfig& cfg, Comm& comm, const Args& args,
                                           Buffers& bufs) {
  return make_dsm_op<Allreduce>(cfg, comm, args, bufs);
}

}  // namespace

OpTable allreduce_ops(const OpConfig& cfg) {
  return op_entries({OpKind::kAllreduceMax, OpKind::kAllreduceSum}, make_allreduce, cfg);
}

}  // namespace comops::swcc
