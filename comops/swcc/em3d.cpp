// swcc EM3D (--app=em3d): the Split-C program on the DSM (comops/apps/em3d/swcc_kernel.hpp). The
// node values live in global memory, each participant's homed at it; every participant updates
// its own nodes, reading its neighbours through the DSM (swcc-N: cached in blocks; swcc-sc: a
// request per remote read), a DSM barrier after each half-step. --em3d-split=1 fetches a
// half-step's remote values with split-phase gets first, --em3d-split=2 through a read view of
// each block they lie in.
#include "comops/apps/em3d/app_params.hpp"
#include "comops/apps/em3d/swcc_kernel.hpp"
#include "comops/swcc/dsm_op.hpp"

namespace comops::swcc {
namespace {

// --em3d-split's values (its descriptor allows 0 to 2).
em3d::Reads reads_of(const Args& args) {
  switch (em3d::split_of(args)) {
    case 1:
      return em3d::Reads::kSplitPhase;
    case 2:
      return em3d::Reads::kViews;
    default:
      return em3d::Reads::kBlocking;
  }
}

template <std::size_t B>
class Em3d final : public DsmOpBase {
 public:
  Em3d(const OpConfig& cfg, Comm& comm, const Args& args, Buffers& bufs)
      : DsmOpBase(comm, cfg, em3d::swcc_segment_bytes(em3d::params_of(args))),
        d_(*engine_),
        bufs_(bufs),
        nodes_(em3d::params_of(args).nodes),
        kernel_(d_, em3d::params_of(args), em3d::kGraphSeed, reads_of(args)) {}

  void run() override {
    const std::uint64_t* in = em3d::values_in(bufs_.send);
    std::uint64_t* out = em3d::values_in(bufs_.recv);
    kernel_.run(in, in + nodes_, out, out + nodes_);
  }

 private:
  Dsm<B> d_;
  Buffers& bufs_;
  std::size_t nodes_;
  em3d::SwccKernel<B> kernel_;
};

std::unique_ptr<OpInstance> make_em3d(const OpConfig& cfg, Comm& comm, const Args& args,
                                      Buffers& bufs) {
  return make_dsm_op<Em3d>(cfg, comm, args, bufs);
}

}  // namespace

OpTable em3d_ops(const OpConfig& cfg) { return op_entries({OpKind::kEm3d}, make_em3d, cfg); }

}  // namespace comops::swcc
