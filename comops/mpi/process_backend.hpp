// The part every backend whose participants are the first np MPI world ranks shares (mpi, swcc):
// the sub-communicator cache, the participant limit and spmd on a group of world ranks, with the
// participant Comm as a parameter.
#pragma once

#include <mpi.h>

#include <exception>
#include <functional>
#include <string>

#include "comops/mpi/mpi_comm.hpp"

namespace comops::mpi {

template <class ParticipantComm>
class ProcessBackend : public Backend {
 public:
  Participants participants() const override { return Participants::kProcesses; }

  int max_participants() const override {
    int size = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    return size;
  }

  using Backend::spmd;
  void spmd(const Group& group, const std::function<void(Comm&)>& body) override {
    MPI_Comm comm = comms_.get(group);
    if (comm == MPI_COMM_NULL) return;
    ParticipantComm participants(comm);
    if constexpr (requires { participants.fail(std::string()); }) {
      // A participant that fails tells the others, so that their waits end now (swcc).
      try {
        body(participants);
      } catch (const std::exception& e) {
        participants.fail(e.what());
        throw;
      }
    } else {
      body(participants);
    }
  }

 private:
  SubComms comms_;
};

}  // namespace comops::mpi
