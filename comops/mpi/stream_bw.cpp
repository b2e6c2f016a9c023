// mpi streaming bandwidth (osu_bw's method): participant 0 starts a window of W messages with
// MPI_Isend, one per slot of its send buffer, and waits for them with MPI_Waitall; participant 1
// has posted an MPI_Irecv per slot of its receive buffer, waits for them all and sends a 1-byte
// ack, which participant 0 receives before its next window. Other participants idle.
#include <cstddef>
#include <vector>

#include "comops/mpi/mpi_op.hpp"
#include "comops/mpi/ops.hpp"

namespace comops::mpi {
namespace {

class StreamBw final : public MpiOp {
 public:
  StreamBw(Comm& comm, const Args& args, Buffers& bufs)
      : MpiOp(comm, args, bufs),
        bytes_(mpi_count(args.bytes)),
        req_(rank_ < 2 ? static_cast<std::size_t>(args.window) : 0) {}
  void run() override {
    constexpr int kTag = 3, kAckTag = 4;
    const int w = static_cast<int>(req_.size());
    if (rank_ == 0) {
      for (int k = 0; k < w; ++k)
        MPI_Isend(slot(bufs_.send, k), bytes_, MPI_BYTE, 1, kTag, comm_,
                  &req_[static_cast<std::size_t>(k)]);
      MPI_Waitall(w, req_.data(), MPI_STATUSES_IGNORE);
      MPI_Recv(ack_, sizeof ack_, MPI_BYTE, 1, kAckTag, comm_, MPI_STATUS_IGNORE);
    } else if (rank_ == 1) {
      for (int k = 0; k < w; ++k)
        MPI_Irecv(slot(bufs_.recv, k), bytes_, MPI_BYTE, 0, kTag, comm_,
                  &req_[static_cast<std::size_t>(k)]);
      MPI_Waitall(w, req_.data(), MPI_STATUSES_IGNORE);
      MPI_Send(ack_, sizeof ack_, MPI_BYTE, 0, kAckTag, comm_);
    }
  }

 private:
  // Message k of the window: slot k of a buffer, args_.count elements each.
  Elem* slot(Elem* buffer, int k) const {
    return buffer + static_cast<std::size_t>(k) * args_.count;
  }

  const int bytes_;               // one message
  std::vector<MPI_Request> req_;  // one per message of the window
  char ack_[1] = {};
};

}  // namespace

OpTable stream_bw_ops() { return op_entries({OpKind::kStreamBw}, make_op<StreamBw>); }

}  // namespace comops::mpi
