// swcc reduce-scatter-max / reduce-scatter-sum: the fold of reduce (fold_into: participant 0
// seeds a shared vector in its memory, DSM barrier, every other rank folds its input in under a
// DSM lock, DSM barrier), then every rank reads its own block of the result with a bulk get
// (osu_reduce_scatter's split: reduce_scatter_block in comops/op.hpp), then a closing DSM barrier
// (FoldAndRead in comops/swcc/fold.hpp).
#include "comops/swcc/dsm_op.hpp"
#include "comops/swcc/fold.hpp"

namespace comops::swcc {
namespace {

template <std::size_t B>
class ReduceScatter final : public FoldAndRead<B> {
 public:
  ReduceScatter(const OpConfig& cfg, Comm& comm, const Args& args, Buffers& bufs)
      : FoldAndRead<B>(cfg, comm, args, bufs,
                       reduce_scatter_block(args.count, args.np, comm.rank())) {}
};

std::unique_ptr<OpInstance> make_reduce_scatter(const OpConfig& cfg, Comm& comm, const Args& args,
                                                Buffers& bufs) {
  return make_dsm_op<ReduceScatter>(cfg, comm, args, bufs);
}

}  // namespace

OpTable reduce_scatter_ops(const OpConfig& cfg) {
  return op_entries({OpKind::kReduceScatterMax, OpKind::kReduceScatterSum}, make_reduce_scatter,
                    cfg);
}

}  // namespace comops::swcc
