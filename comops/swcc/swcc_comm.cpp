// SwccComm: MPI barrier and allreduce that keep serving DSM protocol messages while waiting.
#include "comops/swcc/swcc_comm.hpp"

#include <fmt/format.h>
#include <sched.h>

namespace comops::swcc {

SwccComm::SwccComm(MPI_Comm comm, double timeout_s) : MpiComm(comm), timeout_s_(timeout_s) {}

void SwccComm::wait(MPI_Request& req) {
  const double t0 = MPI_Wtime();
  for (int spins = 0;; ++spins) {
    int flag = 0;
    MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    if (flag) return;
    if (engine_) engine_->poll();
    if (spins > 64) sched_yield();
    if ((spins & 1023) == 1023 && MPI_Wtime() - t0 > timeout_s_)
      // The request stays pending: the communicator is unusable afterwards, and the run is
      // failing anyway.
      throw RuntimeError(fmt::format(
          "swcc rank {}: waited {:.0f} s in a barrier or allreduce of {} participants; another "
          "participant probably failed",
          rank(), timeout_s_, size()));
  }
}

void SwccComm::barrier() {
  MPI_Request req;
  MPI_Ibarrier(handle(), &req);
  wait(req);
}

void SwccComm::allreduce(double* values, int n, Reduce op) {
  MPI_Request req;
  MPI_Iallreduce(MPI_IN_PLACE, values, n, MPI_DOUBLE, mpi::to_mpi(op), handle(), &req);
  wait(req);
}

void SwccComm::allreduce(std::int64_t* values, int n, Reduce op) {
  MPI_Request req;
  MPI_Iallreduce(MPI_IN_PLACE, values, n, MPI_INT64_T, mpi::to_mpi(op), handle(), &req);
  wait(req);
}

SwccComm& swcc_comm_of(Comm& comm) {
  auto* c = dynamic_cast<SwccComm*>(&comm);
  if (!c) throw RuntimeError("swcc op given a Comm that is not an swcc one");
  return *c;
}

}  // namespace comops::swcc
