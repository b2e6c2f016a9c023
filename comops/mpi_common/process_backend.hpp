// The part every backend whose participants are the first np MPI world ranks shares (mpi, swcc):
// the sub-communicator cache, the participant limit and spmd on a group of world ranks, with the
// participant Comm as a parameter.
#pragma once

#include <fcntl.h>
#include <mpi.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <string>
#include <thread>

#include "comops/mpi_common/mpi_comm.hpp"

namespace comops::mpi {

/// Prints "comops: error: WHAT (world rank R); the job is aborted" and, half a second later,
/// aborts every rank with exit code 3 (run-time failure).
[[noreturn]] inline void abort_job(const std::string& what) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::fprintf(stderr, "comops: error: %s (world rank %d); the job is aborted\n", what.c_str(),
               rank);
  std::fflush(stderr);
  // The launcher forwards that line from a pipe; an abort at once can end the job before it does.
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  // MPICH's own "Abort(3) on node ..." would be a second line saying less: it goes nowhere.
  if (const int null = ::open("/dev/null", O_WRONLY); null >= 0) ::dup2(null, STDERR_FILENO);
  MPI_Abort(MPI_COMM_WORLD, 3);
  std::abort();  // MPI_Abort does not return
}

/// MPI_COMM_WORLD's size; 1 before MPI_Init (a backend asked before the launch).
inline int world_size_or_one() {
  int initialized = 0;
  MPI_Initialized(&initialized);
  int size = 1;
  if (initialized) MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

/// Runs body, one participant's share of a point of a backend whose participants wait for each
/// other where nothing but the job's end can release them (shmp, hybrid: flags in shared memory,
/// MPI calls): an AgreedError (every participant raised it) goes on; any other failure is one
/// line and the job's end with comops' run-time code (abort_job), "<backend>: ..." when unnamed.
template <class Body>
void run_agreed_or_abort(const std::string& backend, Body&& body) {
  try {
    body();
  } catch (const AgreedError&) {
    throw;
  } catch (const std::exception& e) {
    abort_job(e.what());
  } catch (...) {
    abort_job(backend + ": a participant failed");
  }
}

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
        comms_.abandon(group);  // a wait this failure ended may have left a collective pending
        throw;
      }
    } else {
      // The others may wait in a blocking MPI call for this participant, which nothing can end
      // but the job: say why on this rank, then abort with comops' run-time code.
      try {
        body(participants);
      } catch (const AgreedError&) {
        throw;  // every participant raised it: nobody waits
      } catch (const std::exception& e) {
        abort_job(e.what());
      }
    }
  }

 private:
  SubComms comms_;
};

}  // namespace comops::mpi
