// shm EM3D (--app=em3d): threads of one process update their own nodes in place and read their
// neighbours' values straight from their owners' memory (comops/apps/em3d/shm_kernel.hpp), a team
// barrier after each half-step. Direct: the values live in each participant's receive buffer
// (published once), the initial values copied in from its send buffer. Staged: they live in two
// shared arrays, copied in from the send buffers and out into the receive buffers.
#include <vector>

#include "comops/apps/em3d/app_params.hpp"
#include "comops/apps/em3d/shm_kernel.hpp"
#include "comops/shm/shm_op.hpp"

namespace comops::shm {
namespace {

struct Em3dShared {
  Em3dShared(Arena& arena, std::size_t staging_count)
      : e(arena, staging_count), h(arena, staging_count) {}
  SharedArray e, h;  // staged: every participant's E and H values
};

class Em3d final : public ShmOp {
 public:
  Em3d(Scheme scheme, Comm& comm, const Args& args, Buffers& bufs)
      : ShmOp(comm, args, bufs), nodes_(em3d::params_of(args).nodes) {
    const bool staged = scheme == Scheme::kStaged;
    sh_ = team_.make_shared<Em3dShared>(rank_, staged ? nodes_ * np_ : 0);
    publish();
    em3d::ShmParts parts;
    for (std::size_t r = 0; r < static_cast<std::size_t>(np_); ++r) {
      parts.e.push_back(em3d::values_in(staged ? sh_->e.data() + r * nodes_ : peers_[r].recv));
      parts.h.push_back(
          em3d::values_in(staged ? sh_->h.data() + r * nodes_ : peers_[r].recv + nodes_));
    }
    kernel_ = std::make_unique<em3d::ShmKernel>(em3d::params_of(args), em3d::kGraphSeed, rank_,
                                                std::move(parts),
                                                [this] { team_.central_barrier(rank_); });
  }

  void run() override {
    const std::uint64_t* in = em3d::values_in(bufs_.send);
    std::uint64_t* out = em3d::values_in(bufs_.recv);
    kernel_->run(in, in + nodes_, out, out + nodes_);
  }

 private:
  std::size_t nodes_;
  std::shared_ptr<Em3dShared> sh_;
  std::unique_ptr<em3d::ShmKernel> kernel_;
};

std::unique_ptr<OpInstance> make_em3d(Scheme scheme, Comm& comm, const Args& args, Buffers& bufs) {
  return std::make_unique<Em3d>(scheme, comm, args, bufs);
}

}  // namespace

OpTable em3d_ops(Scheme scheme) { return op_entries({OpKind::kEm3d}, make_em3d, scheme); }

}  // namespace comops::shm
