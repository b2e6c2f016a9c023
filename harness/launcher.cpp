// Launcher detection and self-relaunch through mpiexec.
#include "harness/launcher.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "comops/op.hpp"

namespace comops {
namespace {

constexpr const char* kLaunchedVar = "COMOPS_LAUNCHED";

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
    name = env != nullptr && *env != '\0' ? env : "mpiexec";
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

void relaunch_under_mpiexec(const std::string& mpiexec, int np, int argc, char** argv) {
  if (std::getenv(kLaunchedVar) != nullptr)
    throw RuntimeError(fmt::format(
        "{} started comops without an MPI environment comops recognises (no PMI variables)",
        mpiexec));
  char self[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) throw RuntimeError("cannot find the comops executable to relaunch");
  self[n] = '\0';
  const std::string np_text = std::to_string(np);
  std::vector<char*> args{const_cast<char*>(mpiexec.c_str()), const_cast<char*>("-n"),
                          const_cast<char*>(np_text.c_str()), self};
  for (int i = 1; i < argc; ++i) args.push_back(argv[i]);
  args.push_back(nullptr);
  ::setenv(kLaunchedVar, "1", 1);
  ::execv(mpiexec.c_str(), args.data());
  throw RuntimeError(fmt::format("cannot start {}: {}", mpiexec, std::strerror(errno)));
}

}  // namespace comops
