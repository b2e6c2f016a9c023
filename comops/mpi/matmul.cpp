// mpi matmul (--app=matmul): the hand-written message-passing version. Each rank's rows of B go
// to every rank with MPI_Allgatherv (the rows of the others arrive once per call), then each
// rank multiplies its rows of A by the whole of B from its own memory.
#include "comops/apps/matmul.hpp"

#include <vector>

#include "comops/mpi/mpi_op.hpp"
#include "comops/mpi/ops.hpp"

namespace comops::mpi {
namespace {

class Matmul final : public MpiOp {
 public:
  Matmul(Comm& comm, const Args& args, Buffers& bufs)
      : MpiOp(comm, args, bufs), n_(apps::matmul_n(args)), b_(n_ * n_) {
    rows_ = apps::matmul_rows(n_, args.np, rank_);
    for (int r = 0; r < args.np; ++r) {
      const apps::RowBlock block = apps::matmul_rows(n_, args.np, r);
      counts_.push_back(mpi_count(block.count * n_ * kElemBytes));
      displs_.push_back(mpi_count(block.first * n_ * kElemBytes));
    }
  }

  void run() override {
    const Elem* my_b = bufs_.send + rows_.count * n_;
    MPI_Allgatherv(my_b, counts_[static_cast<std::size_t>(rank_)], MPI_BYTE, b_.data(),
                   counts_.data(), displs_.data(), MPI_BYTE, comm_);
    apps::matmul_kernel(
        bufs_.send, rows_.count, n_, [&](std::size_t k) { return b_.data() + k * n_; }, bufs_.recv);
  }

 private:
  const std::size_t n_;
  std::vector<Elem> b_;  // all of B, n x n
  apps::RowBlock rows_;
  std::vector<int> counts_, displs_;  // bytes of each rank's rows of B, and where they go
};

}  // namespace

OpTable matmul_ops() { return op_entries({OpKind::kMatmul}, make_op<Matmul>); }

}  // namespace comops::mpi
