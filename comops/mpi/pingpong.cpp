// mpi ping-pong: rank 0 sends, rank 1 receives and sends its message back; other ranks idle.
// pingpong uses MPI_Send/MPI_Recv; pingpong-nb makes the same round trip non-blocking: rank 0
// posts MPI_Irecv for the answer, then MPI_Isend, and waits for both with MPI_Waitall; rank 1
// posts MPI_Irecv, waits for the ping (the answer may leave only after it, or the round trip
// would be an exchange), then MPI_Isend and MPI_Wait.
#include "comops/mpi/mpi_op.hpp"
#include "comops/mpi/ops.hpp"

namespace comops::mpi {
namespace {

class Pingpong final : public MpiOp {
 public:
  Pingpong(Comm& comm, const Args& args, Buffers& bufs)
      : MpiOp(comm, args, bufs),
        bytes_(mpi_count(args.bytes)),
        nonblocking_(args.op == OpKind::kPingpongNb) {}
  void run() override {
    if (rank_ > 1) return;
    if (nonblocking_)
      run_nonblocking();
    else
      run_blocking();
  }

 private:
  void run_blocking() {
    constexpr int kTag = 1;
    const int peer = 1 - rank_;
    if (rank_ == 0) {
      MPI_Send(bufs_.send, bytes_, MPI_BYTE, peer, kTag, comm_);
      MPI_Recv(bufs_.recv, bytes_, MPI_BYTE, peer, kTag, comm_, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(bufs_.recv, bytes_, MPI_BYTE, peer, kTag, comm_, MPI_STATUS_IGNORE);
      MPI_Send(bufs_.send, bytes_, MPI_BYTE, peer, kTag, comm_);
    }
  }

  void run_nonblocking() {
    constexpr int kTag = 2;
    const int peer = 1 - rank_;
    MPI_Request req[2];
    MPI_Irecv(bufs_.recv, bytes_, MPI_BYTE, peer, kTag, comm_, &req[0]);
    if (rank_ == 0) {
      MPI_Isend(bufs_.send, bytes_, MPI_BYTE, peer, kTag, comm_, &req[1]);
      MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    } else {
      MPI_Wait(&req[0], MPI_STATUS_IGNORE);
      MPI_Isend(bufs_.send, bytes_, MPI_BYTE, peer, kTag, comm_, &req[1]);
      MPI_Wait(&req[1], MPI_STATUS_IGNORE);
    }
  }

  const int bytes_;
  const bool nonblocking_;
};

}  // namespace

OpTable pingpong_ops() {
  return op_entries({OpKind::kPingpong, OpKind::kPingpongNb}, make_op<Pingpong>);
}

}  // namespace comops::mpi
