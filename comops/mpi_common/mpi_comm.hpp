// Comm over an MPI communicator (the participants of one point), and the sub-communicator cache.
#pragma once

#include <mpi.h>

#include <map>

#include "comops/op.hpp"

namespace comops::mpi {

/// The participants of one point as an MPI communicator; owns nothing. swcc's Comm extends it
/// with waits that keep the DSM serving.
class MpiComm : public Comm {
 public:
  explicit MpiComm(MPI_Comm comm);
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void barrier() override;
  void allreduce(double* values, int n, Reduce op) override;
  void allreduce(std::int64_t* values, int n, Reduce op) override;
  MPI_Comm handle() const { return comm_; }

 private:
  MPI_Comm comm_;
  int rank_ = 0;
  int size_ = 0;
};

/// The MPI handle behind a Comm that an mpi op receives (throws if it is not an MpiComm).
MPI_Comm handle_of(Comm& comm);

/// Communicators of groups of world ranks (participant i = group.ranks[i]), created collectively
/// on first use and cached; MPI_COMM_NULL on ranks outside. Every world rank must ask for the same
/// groups in the same order.
class SubComms {
 public:
  SubComms() = default;
  ~SubComms();
  SubComms(const SubComms&) = delete;
  SubComms& operator=(const SubComms&) = delete;
  MPI_Comm get(const Group& group);
  /// Forgets the group's communicator without freeing it (the next get splits a new one). For
  /// a failed point: its participants may have left a collective pending on it (a barrier, an
  /// allreduce, a communicator duplication), which Open MPI goes on progressing; freeing the
  /// communicator under it makes a later MPI call crash. One communicator leaks per failure.
  void abandon(const Group& group);

 private:
  std::map<Group, MPI_Comm> comms_;
};

/// An element count as MPI's int; throws RuntimeError past INT_MAX (MPI-3 counts are int).
int mpi_count(std::size_t count);

/// MPI_Op for a Reduce.
MPI_Op to_mpi(Reduce op);

}  // namespace comops::mpi
