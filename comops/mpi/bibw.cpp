// mpi bidirectional streaming bandwidth (osu_bibw's method): participants 0 and 1 each post an
// MPI_Irecv per slot of their receive buffer for a window of W messages, then start an MPI_Isend
// per slot of their send buffer, and wait for all 2W requests with MPI_Waitall. Other
// participants idle.
#include <mpi.h>

#include <cstddef>
#include <vector>

#include "comops/mpi/ops.hpp"
#include "comops/mpi_common/mpi_comm.hpp"

namespace comops::mpi {
namespace {

class Bibw final : public OpInstance {
 public:
  Bibw(Comm& comm, const Args& args, Buffers& bufs)
      : comm_(handle_of(comm)),
        rank_(comm.rank()),
        bytes_(mpi_count(args.bytes)),
        count_(args.count),
        window_(rank_ < 2 ? static_cast<std::size_t>(args.window) : 0),
        bufs_(bufs),
        req_(2 * window_) {}
  void run() override {
    if (rank_ > 1) return;
    constexpr int kTag = 5;
    const int peer = 1 - rank_;
    for (std::size_t k = 0; k < window_; ++k)
      MPI_Irecv(bufs_.recv + k * count_, bytes_, MPI_BYTE, peer, kTag, comm_, &req_[k]);
    for (std::size_t k = 0; k < window_; ++k)
      MPI_Isend(bufs_.send + k * count_, bytes_, MPI_BYTE, peer, kTag, comm_, &req_[window_ + k]);
    MPI_Waitall(static_cast<int>(req_.size()), req_.data(), MPI_STATUSES_IGNORE);
  }

 private:
  MPI_Comm comm_;
  int rank_;
  int bytes_;           // one message
  std::size_t count_;   // elements of one message: slot k starts at k x count_
  std::size_t window_;  // messages each way per operation (0 on the idle participants)
  Buffers& bufs_;
  std::vector<MPI_Request> req_;  // the window's receives, then its sends
};

std::unique_ptr<OpInstance> make_bibw(Comm& comm, const Args& args, Buffers& bufs) {
  return std::make_unique<Bibw>(comm, args, bufs);
}

}  // namespace

OpTable bibw_ops() { return op_entries({OpKind::kBibw}, make_bibw); }

}  // namespace comops::mpi
