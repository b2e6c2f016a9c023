// Launcher detection and self-relaunch through mpiexec.
#include "harness/launch/launcher.hpp"

#include <fmt/format.h>
#include <mpi.h>
#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <vector>

#include "comops/op.hpp"

namespace comops {

const char* const kDefaultMpiexec = COMOPS_DEFAULT_MPIEXEC;

namespace {

bool executable(const std::string& path) { return ::access(path.c_str(), X_OK) == 0; }

}  // namespace

bool under_launcher() {
  for (const char* var : {"PMI_RANK", "PMI_SIZE", "PMIX_RANK", "OMPI_COMM_WORLD_SIZE",
                          "MPI_LOCALNRANKS", "SLURM_STEP_ID"})
    if (std::getenv(var) != nullptr) return true;
  return false;
}

std::string find_mpiexec(const std::string& requested) {
  std::string name = requested;
  if (name.empty()) {
    const char* env = std::getenv("COMOPS_MPIEXEC");
    name = env != nullptr && *env != '\0' ? env : kDefaultMpiexec;
  }
  if (name.find('/') != std::string::npos) {
    if (executable(name)) return name;
  } else if (const char* path = std::getenv("PATH")) {
    std::string dirs = path;
    std::size_t start = 0;
    while (start <= dirs.size()) {
      const auto colon = dirs.find(':', start);
      const std::string dir =
          dirs.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
      const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
      if (executable(candidate)) return candidate;
      if (colon == std::string::npos) break;
      start = colon + 1;
    }
  }
  throw RuntimeError(fmt::format(
      "MPI launcher '{}' not found: install MPICH, give --mpiexec or COMOPS_MPIEXEC, or start "
      "comops under your launcher (mpiexec -n N comops ...)",
      name));
}

int allocation_tasks() {
  const char* tasks = std::getenv("SLURM_NTASKS");
  if (tasks == nullptr) return 0;
  char* end = nullptr;
  const long n = std::strtol(tasks, &end, 10);
  return end != tasks && *end == '\0' && n > 0 && n < 1000000 ? static_cast<int>(n) : 0;
}

LaunchSlots launch_slots(int cores) {
  const int tasks = allocation_tasks();
  return tasks > 0 ? LaunchSlots{tasks, true} : LaunchSlots{std::max(cores, 1), false};
}

void check_launch_size(int processes, const LaunchSlots& slots) {
  const long limit = static_cast<long>(kMaxLaunchedPerCore) * slots.count;
  if (processes <= limit) return;
  const char* unit = slots.allocated ? "allocated task" : "core";
  throw UsageError(fmt::format(
      "np={} would launch {} processes on {} {}{}; comops launches itself at most {} per {} ({} "
      "here): start it under your launcher (mpiexec -n {} comops ...) to run more",
      processes, processes, slots.count, unit, slots.count == 1 ? "" : "s", kMaxLaunchedPerCore,
      unit, limit, processes));
}

std::vector<std::pair<std::string, std::string>> launcher_environment(bool as_root) {
  std::vector<std::pair<std::string, std::string>> settings;
#ifdef OPEN_MPI
  settings = {{"OMPI_MCA_rmaps_base_oversubscribe", "1"},
              {"OMPI_MCA_hwloc_base_binding_policy", "none"}};
  if (as_root)
    settings.insert(settings.end(),
                    {{"OMPI_ALLOW_RUN_AS_ROOT", "1"}, {"OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"}});
#else
  (void)as_root;
#endif
  std::erase_if(settings, [](const auto& s) { return std::getenv(s.first.c_str()) != nullptr; });
  return settings;
}

std::vector<std::string> launcher_export_flags(const std::vector<std::string>& names) {
  std::vector<std::string> flags;
#ifdef OPEN_MPI
  for (const std::string& name : names) flags.insert(flags.end(), {"-x", name});
#else
  (void)names;
#endif
  return flags;
}

std::vector<std::string> launcher_command(const std::string& requested) {
  std::string text = requested;
  if (text.empty()) {
    const char* env = std::getenv("COMOPS_MPIEXEC");
    text = env != nullptr ? env : "";
  }
  std::vector<std::string> words;
  std::istringstream in(text);
  for (std::string w; in >> w;) words.push_back(w);
  if (words.empty()) words.push_back(kDefaultMpiexec);
  words[0] = find_mpiexec(words[0]);
  check_launcher_flags(words);
  check_host_name_resolves(words);
  return words;
}

std::string host_name_resolution_error(const std::string& host) {
  addrinfo hints = {};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const int rc = ::getaddrinfo(host.c_str(), nullptr, &hints, &found);
  if (rc == 0) {
    ::freeaddrinfo(found);
    return "";
  }
  return rc == EAI_SYSTEM ? std::strerror(errno) : ::gai_strerror(rc);
}

std::string self_executable(const std::string& why) {
  char self[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) throw RuntimeError("cannot find the comops executable to " + why);
  self[n] = '\0';
  return self;
}

bool launches_remote_proxies(const std::vector<std::string>& words) {
  static const char* const kHostOptions[] = {
      "-f",        "-hostfile",      "-machinefile", "-hosts",          "-host",
      "-launcher", "-launcher-exec", "-bootstrap",   "-bootstrap-exec", "-rmk"};
  for (std::size_t i = 1; i < words.size(); ++i)
    for (const char* option : kHostOptions)
      if (words[i] == option || words[i] == std::string("-") + option) return true;
  return allocation_tasks() > 0;  // inside salloc/sbatch Hydra starts a proxy on every node
}

void check_host_name_resolves(const std::vector<std::string>& words) {
#ifndef OPEN_MPI
  const std::string program = words.at(0).substr(words.at(0).find_last_of('/') + 1);
  if (program.rfind("mpiexec", 0) != 0 && program.rfind("mpirun", 0) != 0) return;
  if (!launches_remote_proxies(words)) return;
  char name[HOST_NAME_MAX + 1] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return;
  const std::string why = host_name_resolution_error(name);
  if (!why.empty())
    throw RuntimeError(fmt::format(
        "this machine's host name '{}' does not resolve ({}), and MPICH's launcher {} needs it "
        "for a job on hosts: add a line such as '127.0.1.1 {}' to /etc/hosts",
        name, why, words[0], name));
#else
  (void)words;  // Open MPI's launcher: not checked (its own message names the host)
#endif
}

void check_launcher_flags(const std::vector<std::string>& words) {
#ifdef OPEN_MPI
  // Hydra's flags that Open MPI's mpiexec does not take, and what it takes instead.
  static const std::pair<const char*, const char*> kHydraOnly[] = {
      {"-f", "--hostfile FILE"},
      {"-launcher", "--mca plm_rsh_agent PROGRAM (with -launcher-exec)"},
      {"-launcher-exec", "--mca plm_rsh_agent PROGRAM"},
      {"-iface", "--mca btl_tcp_if_include IFACE --mca oob_tcp_if_include IFACE"},
      {"-genv", "-x VAR=VALUE"},
      {"-genvall", "-x VAR for each variable"},
      {"-ppn", "--npernode N"},
  };
  for (std::size_t i = 1; i < words.size(); ++i)
    for (const auto& [hydra, ompi] : kHydraOnly)
      if (words[i] == hydra)
        throw UsageError(fmt::format(
            "launcher option {} is MPICH Hydra's; this comops is built against Open MPI, whose "
            "mpiexec takes {}",
            hydra, ompi));
#else
  (void)words;
#endif
}

}  // namespace comops
