// mpi barrier: MPI_Barrier over the participants.
#include <mpi.h>

#include "comops/mpi/ops.hpp"
#include "comops/mpi_common/mpi_comm.hpp"

namespace comops::mpi {
namespace {

class Barrier final : public OpInstance {
 public:
  explicit Barrier(Comm& comm) : comm_(handle_of(comm)) {}
  void run() override { MPI_Barrier(comm_); }

 private:
  MPI_Comm comm_;
};

std::unique_ptr<OpInstance> make_barrier(Comm& comm, const Args&, Buffers&) {
  return std::make_unique<Barrier>(comm);
}

}  // namespace

OpTable barrier_ops() { return op_entries({OpKind::kBarrier}, make_barrier); }

}  // namespace comops::mpi
