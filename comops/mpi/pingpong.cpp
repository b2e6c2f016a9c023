// mpi ping-pong: rank 0 sends, rank 1 receives and sends its message back; other ranks idle.
#include <mpi.h>

#include "comops/mpi_common/mpi_comm.hpp"
#include "comops/mpi/ops.hpp"

namespace comops::mpi {
namespace {

class Pingpong final : public OpInstance {
 public:
  Pingpong(Comm& comm, const Args& args, Buffers& bufs)
      : comm_(handle_of(comm)), rank_(comm.rank()), bytes_(mpi_count(args.bytes)), bufs_(bufs) {}
  void run() override {
    constexpr int kTag = 1;
    if (rank_ == 0) {
      MPI_Send(bufs_.send, bytes_, MPI_BYTE, 1, kTag, comm_);
      MPI_Recv(bufs_.recv, bytes_, MPI_BYTE, 1, kTag, comm_, MPI_STATUS_IGNORE);
    } else if (rank_ == 1) {
      MPI_Recv(bufs_.recv, bytes_, MPI_BYTE, 0, kTag, comm_, MPI_STATUS_IGNORE);
      MPI_Send(bufs_.send, bytes_, MPI_BYTE, 0, kTag, comm_);
    }
  }

 private:
  MPI_Comm comm_;
  int rank_;
  int bytes_;
  Buffers& bufs_;
};

}  // namespace

std::unique_ptr<OpInstance> make_pingpong(Comm& comm, const Args& args, Buffers& bufs) {
  return std::make_unique<Pingpong>(comm, args, bufs);
}

}  // namespace comops::mpi
