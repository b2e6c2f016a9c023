// mpi bidirectional streaming bandwidth (osu_bibw's method): participants 0 and 1 each post an
// MPI_Irecv per slot of their receive buffer for a window of W messages, then start an MPI_Isend
// per slot of their send buffer, and wait for all 2W requests with MPI_Waitall. Other
// participants idle.
#include <cstddef>
#include <vector>

#include "comops/mpi/mpi_op.hpp"
#include "comops/mpi/ops.hpp"

namespace comops::mpi {
namespace {

class Bibw final : public MpiOp {
 public:
  Bibw(Comm& comm, const Args& args, Buffers& bufs)
      : MpiOp(comm, args, bufs),
        bytes_(mpi_count(args.bytes)),
        window_(rank_ < 2 ? static_cast<std::size_t>(args.window) : 0),
        req_(2 * window_) {}
  void run() override {
    if (rank_ > 1) return;
    constexpr int kTag = 5;
    const int peer = 1 - rank_;
    const std::size_t n = args_.count;  // elements of one message: slot k starts at k x n
    for (std::size_t k = 0; k < window_; ++k)
      MPI_Irecv(bufs_.recv + k * n, bytes_, MPI_BYTE, peer, kTag, comm_, &req_[k]);
    for (std::size_t k = 0; k < window_; ++k)
      MPI_Isend(bufs_.send + k * n, bytes_, MPI_BYTE, peer, kTag, comm_, &req_[window_ + k]);
    MPI_Waitall(static_cast<int>(req_.size()), req_.data(), MPI_STATUSES_IGNORE);
  }

 private:
  const int bytes_;               // one message
  const std::size_t window_;      // messages each way per operation (0 on the idle participants)
  std::vector<MPI_Request> req_;  // the window's receives, then its sends
};

}  // namespace

OpTable bibw_ops() { return op_entries({OpKind::kBibw}, make_op<Bibw>); }

}  // namespace comops::mpi
