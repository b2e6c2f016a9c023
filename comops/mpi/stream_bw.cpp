// mpi streaming bandwidth (osu_bw's method): participant 0 starts a window of W messages with
// MPI_Isend, one per slot of its send buffer, and waits for them with MPI_Waitall; participant 1
// has posted an MPI_Irecv per slot of its receive buffer, waits for them all and sends a 1-byte
// ack, which participant 0 receives before its next window. Other participants idle.
#include <mpi.h>

#include <cstddef>
#include <vector>

#include "comops/mpi/ops.hpp"
#include "comops/mpi_common/mpi_comm.hpp"

namespace comops::mpi {
namespace {

class StreamBw final : public OpInstance {
 public:
  StreamBw(Comm& comm, const Args& args, Buffers& bufs)
      : comm_(handle_of(comm)),
        rank_(comm.rank()),
        bytes_(mpi_count(args.bytes)),
        count_(args.count),
        bufs_(bufs),
        req_(rank_ < 2 ? static_cast<std::size_t>(args.window) : 0) {}
  void run() override {
    constexpr int kTag = 3, kAckTag = 4;
    const int w = static_cast<int>(req_.size());
    if (rank_ == 0) {
      for (int k = 0; k < w; ++k)
        MPI_Isend(bufs_.send + static_cast<std::size_t>(k) * count_, bytes_, MPI_BYTE, 1, kTag,
                  comm_, &req_[static_cast<std::size_t>(k)]);
      MPI_Waitall(w, req_.data(), MPI_STATUSES_IGNORE);
      MPI_Recv(ack_, sizeof ack_, MPI_BYTE, 1, kAckTag, comm_, MPI_STATUS_IGNORE);
    } else if (rank_ == 1) {
      for (int k = 0; k < w; ++k)
        MPI_Irecv(bufs_.recv + static_cast<std::size_t>(k) * count_, bytes_, MPI_BYTE, 0, kTag,
                  comm_, &req_[static_cast<std::size_t>(k)]);
      MPI_Waitall(w, req_.data(), MPI_STATUSES_IGNORE);
      MPI_Send(ack_, sizeof ack_, MPI_BYTE, 0, kAckTag, comm_);
    }
  }

 private:
  MPI_Comm comm_;
  int rank_;
  int bytes_;          // one message
  std::size_t count_;  // elements of one message: slot k starts at k x count_
  Buffers& bufs_;
  std::vector<MPI_Request> req_;  // one per message of the window
  char ack_[1] = {};
};

std::unique_ptr<OpInstance> make_stream_bw(Comm& comm, const Args& args, Buffers& bufs) {
  return std::make_unique<StreamBw>(comm, args, bufs);
}

}  // namespace

OpTable stream_bw_ops() { return op_entries({OpKind::kStreamBw}, make_stream_bw); }

}  // namespace comops::mpi
