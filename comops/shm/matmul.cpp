// shm matmul (--app=matmul): threads of one process share B. Direct: every thread reads the rows
// of B straight from their owners' send buffers (published once), barrier at the start (the
// inputs are in place) and at the end (no owner refills its rows while another still reads
// them). Staged: every thread copies its rows of B into one shared B, barrier, multiplies from
// the shared B, barrier.
#include "comops/apps/matmul.hpp"

#include <vector>

#include "comops/shm/shm_op.hpp"

namespace comops::shm {
namespace {

struct MatmulShared {
  MatmulShared(Arena& arena, std::size_t staging_count) : staging(arena, staging_count) {}
  SharedArray staging;  // staged: all of B
};

class Matmul final : public ShmOp {
 public:
  Matmul(Scheme scheme, Comm& comm, const Args& args, Buffers& bufs)
      : ShmOp(comm, args, bufs),
        staged_(scheme == Scheme::kStaged),
        n_(apps::matmul_n(args)),
        rows_(apps::matmul_rows(n_, np_, rank_)),
        owner_(apps::matmul_owners(n_, np_)) {
    sh_ = team_.make_shared<MatmulShared>(rank_, staged_ ? n_ * n_ : 0);
    publish();
    // Row k of B: in the shared copy (staged) or in its owner's send buffer, after its rows of A.
    b_rows_.resize(n_);
    for (std::size_t k = 0; k < n_; ++k) {
      const int o = owner_[k];
      const apps::RowBlock ob = apps::matmul_rows(n_, np_, o);
      b_rows_[k] =
          staged_ ? sh_->staging.data() + k * n_
                  : peers_[static_cast<std::size_t>(o)].send + ob.count * n_ + (k - ob.first) * n_;
    }
  }

  void run() override {
    const Elem* my_b = bufs_.send + rows_.count * n_;
    if (staged_) copy_elems(sh_->staging.data() + rows_.first * n_, my_b, rows_.count * n_);
    team_.central_barrier(rank_);
    apps::matmul_kernel(
        bufs_.send, rows_.count, n_, [&](std::size_t k) { return b_rows_[k]; }, bufs_.recv);
    team_.central_barrier(rank_);
  }

 private:
  bool staged_;
  std::size_t n_;
  apps::RowBlock rows_;
  std::vector<int> owner_;
  std::vector<const Elem*> b_rows_;
  std::shared_ptr<MatmulShared> sh_;
};

std::unique_ptr<OpInstance> make_matmul(Scheme scheme, Comm& comm, const Args& args,
                                        Buffers& bufs) {
  return std::make_unique<Matmul>(scheme, comm, args, bufs);
}

}  // namespace

OpTable matmul_ops(Scheme scheme) { return op_entries({OpKind::kMatmul}, make_matmul, scheme); }

}  // namespace comops::shm
