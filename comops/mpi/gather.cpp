// mpi gather: MPI_Gather of each rank's block into the root's receive buffer.
#include <mpi.h>

#include "comops/mpi/mpi_comm.hpp"
#include "comops/mpi/ops.hpp"

namespace comops::mpi {
namespace {

class Gather final : public OpInstance {
 public:
  Gather(Comm& comm, const Args& args, Buffers& bufs)
      : comm_(handle_of(comm)), root_(args.root), bytes_(static_cast<int>(args.bytes)),
        bufs_(bufs) {}
  void run() override {
    MPI_Gather(bufs_.send, bytes_, MPI_BYTE, bufs_.recv, bytes_, MPI_BYTE, root_, comm_);
  }

 private:
  MPI_Comm comm_;
  int root_;
  int bytes_;
  Buffers& bufs_;
};

}  // namespace

std::unique_ptr<OpInstance> make_gather(Comm& comm, const Args& args, Buffers& bufs) {
  return std::make_unique<Gather>(comm, args, bufs);
}

}  // namespace comops::mpi
