// MPI implementation of the participant Comm and the cache of sub-communicators.
#include "comops/mpi_common/mpi_comm.hpp"

#include <climits>
#include <string>

namespace comops::mpi {

MpiComm::MpiComm(MPI_Comm comm) : comm_(comm) {
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
}

void MpiComm::barrier() { MPI_Barrier(comm_); }

void MpiComm::allreduce(double* values, int n, Reduce op) {
  MPI_Allreduce(MPI_IN_PLACE, values, n, MPI_DOUBLE, to_mpi(op), comm_);
}

void MpiComm::allreduce(std::int64_t* values, int n, Reduce op) {
  MPI_Allreduce(MPI_IN_PLACE, values, n, MPI_INT64_T, to_mpi(op), comm_);
}

MPI_Comm handle_of(Comm& comm) {
  auto* mpi = dynamic_cast<MpiComm*>(&comm);
  if (mpi == nullptr) throw RuntimeError("an mpi op was given a participant group that is not MPI");
  return mpi->handle();
}

SubComms::~SubComms() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  for (auto& [group, comm] : comms_)
    if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
}

MPI_Comm SubComms::get(const Group& group) {
  auto it = comms_.find(group);
  if (it != comms_.end()) return it->second;
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int position = -1;  // this rank's participant index, -1 outside the group
  for (int i = 0; i < group.size(); ++i)
    if (group.ranks[static_cast<std::size_t>(i)] == rank) position = i;
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, position >= 0 ? 0 : MPI_UNDEFINED, position, &comm);
  comms_.emplace(group, comm);
  return comm;
}

void SubComms::abandon(const Group& group) { comms_.erase(group); }

int mpi_count(std::size_t count) {
  if (count > static_cast<std::size_t>(INT_MAX))
    throw RuntimeError("the mpi backend moves at most " + std::to_string(INT_MAX) +
                       " bytes or elements per call; " + std::to_string(count) + " was asked for");
  return static_cast<int>(count);
}

MPI_Op to_mpi(Reduce op) {
  switch (op) {
    case Reduce::kMin:
      return MPI_MIN;
    case Reduce::kMax:
      return MPI_MAX;
    case Reduce::kSum:
      break;
  }
  return MPI_SUM;
}

}  // namespace comops::mpi
