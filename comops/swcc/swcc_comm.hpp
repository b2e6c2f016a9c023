// Comm over an MPI sub-communicator whose waits keep the DSM's progress engine running, and the
// abort channel that makes one participant's failure end every participant's wait at once.
#pragma once

#include <mpi.h>

#include <array>
#include <string>

#include "comops/mpi_common/mpi_comm.hpp"
#include "comops/op.hpp"
#include "swcc/swcc.hpp"

namespace comops::swcc {

/// Thrown on a participant whose wait ended because another participant failed; the text names
/// that participant and its own error.
struct ParticipantFailed : RuntimeError {
  using RuntimeError::RuntimeError;
};

/// The participants of one point; barrier and allreduce are non-blocking MPI calls completed
/// while polling the attached DSM engine (spin; then sched_yield when the engine yields, or
/// without an engine).
///
/// Abort channel: each instance pre-posts a receive for an abort message on its communicator. A
/// participant that fails calls fail(), which tells every other participant; their next wait (a
/// barrier, an allreduce, or any DSM wait through check()) throws ParticipantFailed at once. A
/// wait longer than `timeout_s` times load_factor() (the machine's load, so that a loaded or
/// oversubscribed machine is not taken for a failure) still throws RuntimeError as the last
/// resort. Owns nothing but its receive.
class SwccComm final : public mpi::MpiComm {
 public:
  static constexpr double kDefaultTimeoutS = 120;
  explicit SwccComm(MPI_Comm comm, double timeout_s = kDefaultTimeoutS);
  ~SwccComm() override;
  SwccComm(const SwccComm&) = delete;
  SwccComm& operator=(const SwccComm&) = delete;

  void barrier() override;
  void allreduce(double* values, int n, Reduce op) override;
  void allreduce(std::int64_t* values, int n, Reduce op) override;
  /// The engine to poll while waiting (null: none); set by op instances for their lifetime.
  void attach(::swcc::Engine* engine) { engine_ = engine; }

  /// Throws ParticipantFailed when another participant has called fail().
  void check();
  /// Tells every other participant that this one failed with `what` (once; never blocks).
  void fail(const std::string& what);

 private:
  void wait(MPI_Request& req);
  ::swcc::Engine* engine_ = nullptr;
  double timeout_s_;
  int abort_tag_;
  MPI_Request abort_req_ = MPI_REQUEST_NULL;
  std::array<char, 512> abort_text_{};
  bool failed_ = false;
};

/// The SwccComm behind a Comm given to an swcc op (throws RuntimeError otherwise).
SwccComm& swcc_comm_of(Comm& comm);

}  // namespace comops::swcc
