// SwccComm: MPI barrier and allreduce that keep serving DSM protocol messages while waiting, and
// the abort channel between the participants of one point.
#include "comops/swcc/swcc_comm.hpp"

#include <fmt/format.h>
#include <sched.h>

#include <algorithm>

namespace comops::swcc {

namespace {

// Abort messages of one SwccComm must not reach a later one on the same (cached)
// communicator: every instance takes the next tag of its communicator, counted in an attribute
// cached on the communicator itself (so a new communicator starts at the first tag, whatever
// handle value it gets). All participants of a point create their instance in the same order,
// so they agree on the tag.
int next_abort_tag(MPI_Comm comm) {
  constexpr int kFirst = 1000, kCount = 30000;  // MPI guarantees tags up to 32767
  static int keyval = [] {
    int k = MPI_KEYVAL_INVALID;
    MPI_Comm_create_keyval(
        MPI_COMM_NULL_COPY_FN,
        [](MPI_Comm, int, void* value, void*) {
          delete static_cast<int*>(value);
          return MPI_SUCCESS;
        },
        &k, nullptr);
    return k;
  }();
  int* generation = nullptr;
  int found = 0;
  MPI_Comm_get_attr(comm, keyval, &generation, &found);
  if (!found) {
    generation = new int(0);
    MPI_Comm_set_attr(comm, keyval, generation);
  }
  return kFirst + (*generation)++ % kCount;
}

}  // namespace

SwccComm::SwccComm(MPI_Comm comm, double timeout_s)
    : MpiComm(comm), timeout_s_(timeout_s), abort_tag_(next_abort_tag(comm)) {
  MPI_Irecv(abort_text_.data(), static_cast<int>(abort_text_.size()), MPI_CHAR, MPI_ANY_SOURCE,
            abort_tag_, handle(), &abort_req_);
}

SwccComm::~SwccComm() {
  if (abort_req_ == MPI_REQUEST_NULL) return;
  MPI_Cancel(&abort_req_);
  MPI_Wait(&abort_req_, MPI_STATUS_IGNORE);
}

void SwccComm::check() {
  if (abort_req_ == MPI_REQUEST_NULL) return;
  int flag = 0;
  MPI_Status st;
  MPI_Test(&abort_req_, &flag, &st);
  if (!flag) return;
  abort_req_ = MPI_REQUEST_NULL;
  int len = 0;
  MPI_Get_count(&st, MPI_CHAR, &len);
  failed_ = true;  // the failing participant told everybody itself
  throw ParticipantFailed(
      fmt::format("participant {} of {} failed: {}", st.MPI_SOURCE, size(),
                  std::string(abort_text_.data(), static_cast<std::size_t>(len))));
}

void SwccComm::fail(const std::string& what) {
  if (failed_) return;
  failed_ = true;
  // The request is released without waiting, so MPI may read the text after this returns (and
  // after this object is gone): the buffer is deliberately leaked, once per failure.
  const auto* text = new std::string(what.substr(0, std::min(what.find('\n'), abort_text_.size())));
  for (int r = 0; r < size(); ++r) {
    if (r == rank()) continue;
    MPI_Request req;
    MPI_Isend(text->data(), static_cast<int>(text->size()), MPI_CHAR, r, abort_tag_, handle(),
              &req);
    MPI_Request_free(&req);
  }
}

void SwccComm::wait(MPI_Request& req) {
  const double t0 = MPI_Wtime();
  for (int spins = 0;; ++spins) {
    int flag = 0;
    MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    if (flag) return;
    if (engine_) engine_->poll();
    // The request stays pending when this throws: the communicator is unusable afterwards, and
    // the run is failing anyway.
    check();
    // As the engine's own waits: with a CPU per rank spin (a yield hands other load a time slice
    // while the peers' part of the barrier arrives); oversubscribed, or before an engine is
    // attached (placement unknown), give the core away past 64 polls.
    if (spins > 64 && (!engine_ || engine_->yields_when_idle())) sched_yield();
    if ((spins & 1023) != 1023) continue;
    // Past the limit, the machine's load (read only then) may still stretch it.
    const double waited = MPI_Wtime() - t0;
    if (waited > timeout_s_ && waited > timeout_s_ * ::swcc::load_factor())
      throw RuntimeError(fmt::format(
          "swcc rank {}: waited {:.0f} s in a barrier or allreduce of {} participants; another "
          "participant probably failed",
          rank(), waited, size()));
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
