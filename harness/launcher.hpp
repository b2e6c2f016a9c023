// Starting comops under mpiexec when it is run directly and its backends need MPI processes.
#pragma once

#include <string>

namespace comops {

/// True when this process was started by an MPI launcher (mpiexec/hydra, srun, Open MPI, PMIx).
bool under_launcher();

/// The launcher to use: `requested` if given, else $COMOPS_MPIEXEC, else "mpiexec"; resolved
/// on PATH. Throws RuntimeError when it cannot be found.
std::string find_mpiexec(const std::string& requested);

/// Replaces this process by `mpiexec -n np <this program> <argv[1..]>`. Returns only by throwing
/// RuntimeError (launcher missing, exec failed, or a relaunch loop).
[[noreturn]] void relaunch_under_mpiexec(const std::string& mpiexec, int np, int argc, char** argv);

}  // namespace comops
