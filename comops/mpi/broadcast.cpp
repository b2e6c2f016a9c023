// mpi broadcast: MPI_Bcast from the root's send buffer into every other rank's receive buffer.
#include <mpi.h>

#include "comops/mpi/ops.hpp"
#include "comops/mpi_common/mpi_comm.hpp"

namespace comops::mpi {
namespace {

class Broadcast final : public OpInstance {
 public:
  Broadcast(Comm& comm, const Args& args, Buffers& bufs)
      : comm_(handle_of(comm)),
        root_(args.root),
        bytes_(mpi_count(args.bytes)),
        data_(comm.rank() == args.root ? bufs.send : bufs.recv) {}
  void run() override { MPI_Bcast(data_, bytes_, MPI_BYTE, root_, comm_); }

 private:
  MPI_Comm comm_;
  int root_;
  int bytes_;
  Elem* data_;
};

std::unique_ptr<OpInstance> make_broadcast(Comm& comm, const Args& args, Buffers& bufs) {
  return std::make_unique<Broadcast>(comm, args, bufs);
}

}  // namespace

OpTable broadcast_ops() { return op_entries({OpKind::kBroadcast}, make_broadcast); }

}  // namespace comops::mpi
