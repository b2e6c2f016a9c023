// Finding the launcher comops starts itself under when it is run directly and its backends need
// MPI processes (harness/launch/supervisor.hpp runs it).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace comops {

/// The launcher of the MPI comops was built against (-DCOMOPS_MPI): "mpiexec" for MPICH, Open MPI's
/// own ("mpiexec.openmpi" on Debian) for Open MPI, so that a system whose mpiexec is MPICH's never
/// starts an Open MPI comops.
extern const char* const kDefaultMpiexec;

/// True when this process was started by an MPI launcher (mpiexec/hydra, srun, Open MPI, PMIx).
bool under_launcher();

/// The launcher to use: `requested` if given, else $COMOPS_MPIEXEC, else kDefaultMpiexec; resolved
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

/// Settings the launcher comops starts itself under gets in its environment, for the MPI comops
/// was built against; each only where the environment does not set that variable already (the
/// user's choice wins). MPICH's Hydra needs none. Open MPI's mpiexec gets
/// OMPI_MCA_rmaps_base_oversubscribe=1 (it refuses more processes than cores otherwise; Hydra
/// oversubscribes and comops limits itself to kMaxLaunchedPerCore),
/// OMPI_MCA_hwloc_base_binding_policy =none (comops binds its participants itself; Open MPI would
/// bind each rank to a core, which hides the others from it) and, when `as_root`,
/// OMPI_ALLOW_RUN_AS_ROOT=1 and OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 (it refuses root otherwise).
std::vector<std::pair<std::string, std::string>> launcher_environment(bool as_root);

/// The launcher command: `requested`, else $COMOPS_MPIEXEC, else kDefaultMpiexec, split at white
/// space into a program and its arguments ("mpiexec -f hosts" for a hostfile); the program resolved
/// as find_mpiexec does. Throws RuntimeError when it cannot be found, the command is empty or
/// check_host_name_resolves refuses it, and UsageError when check_launcher_flags refuses it.
std::vector<std::string> launcher_command(const std::string& requested);

/// This comops executable's path (/proc/self/exe), to start it again under a launcher. Throws
/// RuntimeError "cannot find the comops executable to WHY" when it cannot be read.
std::string self_executable(const std::string& why);

/// Why `host` does not resolve to an address (getaddrinfo's message), or "" when it does.
std::string host_name_resolution_error(const std::string& host);

/// True when the launcher command `words` may start Hydra proxies on other hosts: it names hosts
/// or a launcher (-f, -hosts, -launcher, ... with one dash or two), or comops runs inside a batch
/// allocation. Their proxies connect back to this machine by its host name.
bool launches_remote_proxies(const std::vector<std::string>& words);

/// In a comops built against MPICH, when the launcher is Hydra (mpiexec*, mpirun*) and
/// launches_remote_proxies: throws RuntimeError, naming the host and the /etc/hosts line to add,
/// when this machine's own host name does not resolve. Hydra's proxies would print "unable to get
/// host address" and exit, and mpiexec would wait for them forever. A job of this machine alone
/// needs no host name and is not checked.
void check_host_name_resolves(const std::vector<std::string>& words);

/// The launcher options that pass these environment variables to every rank, on every host:
/// none for MPICH's Hydra (it passes the whole environment); `-x NAME` each for Open MPI's
/// mpiexec (its ranks on other hosts get only what -x names, and OMPI_* variables).
std::vector<std::string> launcher_export_flags(const std::vector<std::string>& names);

/// In a comops built against Open MPI: refuses (UsageError, naming Open MPI's counterpart) an
/// option of MPICH's Hydra that Open MPI's mpiexec does not take (-f, -launcher, -launcher-exec,
/// -iface, -genv, -genvall, -ppn) in the launcher command `words`. Does nothing for MPICH.
void check_launcher_flags(const std::vector<std::string>& words);

}  // namespace comops
