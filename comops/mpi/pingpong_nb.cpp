// mpi non-blocking ping-pong: participant 0 posts MPI_Irecv for the answer, then MPI_Isend, and
// waits for both with MPI_Waitall; participant 1 posts MPI_Irecv, waits for the ping (the answer
// may leave only after it, or the round trip would be an exchange), then MPI_Isend and MPI_Wait.
#include <mpi.h>

#include "comops/mpi_common/mpi_comm.hpp"
#include "comops/mpi/ops.hpp"

namespace comops::mpi {
namespace {

class PingpongNb final : public OpInstance {
 public:
  PingpongNb(Comm& comm, const Args& args, Buffers& bufs)
      : comm_(handle_of(comm)), rank_(comm.rank()), bytes_(mpi_count(args.bytes)), bufs_(bufs) {}
  void run() override {
    constexpr int kTag = 2;
    MPI_Request req[2];
    if (rank_ == 0) {
      MPI_Irecv(bufs_.recv, bytes_, MPI_BYTE, 1, kTag, comm_, &req[0]);
      MPI_Isend(bufs_.send, bytes_, MPI_BYTE, 1, kTag, comm_, &req[1]);
      MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    } else if (rank_ == 1) {
      MPI_Irecv(bufs_.recv, bytes_, MPI_BYTE, 0, kTag, comm_, &req[0]);
      MPI_Wait(&req[0], MPI_STATUS_IGNORE);
      MPI_Isend(bufs_.send, bytes_, MPI_BYTE, 0, kTag, comm_, &req[1]);
      MPI_Wait(&req[1], MPI_STATUS_IGNORE);
    }
  }

 private:
  MPI_Comm comm_;
  int rank_;
  int bytes_;
  Buffers& bufs_;
};

}  // namespace

std::unique_ptr<OpInstance> make_pingpong_nb(Comm& comm, const Args& args, Buffers& bufs) {
  return std::make_unique<PingpongNb>(comm, args, bufs);
}

}  // namespace comops::mpi
