// Comm over an MPI sub-communicator whose waits keep the DSM's progress engine running.
#pragma once

#include <mpi.h>

#include "comops/mpi/mpi_comm.hpp"
#include "comops/op.hpp"
#include "comops/swcc/engine.hpp"

namespace comops::swcc {

/// The participants of one point; barrier and allreduce are non-blocking MPI calls completed
/// while polling the attached DSM engine (spin, then sched_yield). A wait longer than
/// `timeout_s` throws RuntimeError (a participant that threw never arrives: fail, not hang).
/// Owns nothing.
class SwccComm final : public mpi::MpiComm {
 public:
  static constexpr double kDefaultTimeoutS = 120;
  explicit SwccComm(MPI_Comm comm, double timeout_s = kDefaultTimeoutS);
  void barrier() override;
  void allreduce(double* values, int n, Reduce op) override;
  void allreduce(std::int64_t* values, int n, Reduce op) override;
  /// The engine to poll while waiting (null: none); set by op instances for their lifetime.
  void attach(Engine* engine) { engine_ = engine; }

 private:
  void wait(MPI_Request& req);
  Engine* engine_ = nullptr;
  double timeout_s_;
};

/// The SwccComm behind a Comm given to an swcc op (throws RuntimeError otherwise).
SwccComm& swcc_comm_of(Comm& comm);

}  // namespace comops::swcc
