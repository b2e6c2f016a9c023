// mpi broadcast: MPI_Bcast from the root's send buffer into every other rank's receive buffer.
#include "comops/mpi/mpi_op.hpp"
#include "comops/mpi/ops.hpp"

namespace comops::mpi {
namespace {

class Broadcast final : public MpiOp {
 public:
  Broadcast(Comm& comm, const Args& args, Buffers& bufs)
      : MpiOp(comm, args, bufs),
        bytes_(mpi_count(args.bytes)),
        data_(rank_ == args.root ? bufs.send : bufs.recv) {}
  void run() override { MPI_Bcast(data_, bytes_, MPI_BYTE, args_.root, comm_); }

 private:
  const int bytes_;
  Elem* const data_;
};

}  // namespace

OpTable broadcast_ops() { return op_entries({OpKind::kBroadcast}, make_op<Broadcast>); }

}  // namespace comops::mpi
