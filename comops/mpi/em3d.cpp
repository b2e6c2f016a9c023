// mpi EM3D (--app=em3d): the hand-written message-passing program
// (comops/apps/em3d/mpi_kernel.hpp): ghost lists built once when the point starts, the ghost
// values sent point to point to the ranks that read them before each half-step.
#include "comops/apps/em3d/app_params.hpp"
#include "comops/apps/em3d/mpi_kernel.hpp"
#include "comops/mpi/mpi_op.hpp"
#include "comops/mpi/ops.hpp"

namespace comops::mpi {
namespace {

class Em3d final : public MpiOp {
 public:
  Em3d(Comm& comm, const Args& args, Buffers& bufs)
      : MpiOp(comm, args, bufs),
        nodes_(em3d::params_of(args).nodes),
        kernel_(comm_, em3d::params_of(args), em3d::kGraphSeed) {}

  void run() override {
    const std::uint64_t* in = em3d::values_in(bufs_.send);
    std::uint64_t* out = em3d::values_in(bufs_.recv);
    kernel_.run(in, in + nodes_, out, out + nodes_);
  }

 private:
  const std::size_t nodes_;
  em3d::MpiKernel kernel_;
};

}  // namespace

OpTable em3d_ops() { return op_entries({OpKind::kEm3d}, make_op<Em3d>); }

}  // namespace comops::mpi
