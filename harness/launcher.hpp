// Finding the launcher comops starts itself under when it is run directly and its backends need
// MPI processes (harness/supervisor.hpp runs it).
#pragma once

#include <string>
#include <vector>

namespace comops {

/// True when this process was started by an MPI launcher (mpiexec/hydra, srun, Open MPI, PMIx).
bool under_launcher();

/// The launcher to use: `requested` if given, else $COMOPS_MPIEXEC, else "mpiexec"; resolved
/// on PATH. Throws RuntimeError when it cannot be found.
std::string find_mpiexec(const std::string& requested);

/// Tasks of the batch allocation comops runs in (Slurm's SLURM_NTASKS, e.g. inside salloc), or 0
/// outside one: run directly there, comops sizes its job to the allocation.
int allocation_tasks();

/// The most processes comops launches itself per core (or per task of a batch allocation).
constexpr int kMaxLaunchedPerCore = 16;

/// Where comops launches itself: the tasks of its batch allocation, else this machine's cores
/// (`cores`).
struct LaunchSlots {
  int count = 1;
  bool allocated = false;  ///< count is the allocation's tasks
};
LaunchSlots launch_slots(int cores);

/// Refuses (UsageError) a self-launch of more than kMaxLaunchedPerCore x slots processes: beyond
/// that an --np is a typo, not a measurement. A job started by the user's own launcher is not
/// limited.
void check_launch_size(int processes, const LaunchSlots& slots);

/// The launcher command: `requested`, else $COMOPS_MPIEXEC, else "mpiexec", split at white space
/// into a program and its arguments ("mpiexec -f hosts" for a hostfile); the program resolved as
/// find_mpiexec does. Throws RuntimeError when it cannot be found or the command is empty.
std::vector<std::string> launcher_command(const std::string& requested);

}  // namespace comops
