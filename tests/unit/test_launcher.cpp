// Unit tests of launcher detection and mpiexec lookup (harness/launch/launcher.hpp); the
// environment variables a test changes are restored when it ends.
#include <gtest/gtest.h>
#include <mpi.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "comops/op.hpp"
#include "harness/launch/launcher.hpp"

namespace comops {
namespace {

namespace fs = std::filesystem;

// Sets (or unsets, with nullopt) one environment variable for the life of the object.
class ScopedEnv {
 public:
  ScopedEnv(std::string name, std::optional<std::string> value) : name_(std::move(name)) {
    if (const char* old = std::getenv(name_.c_str())) old_ = old;
    if (value)
      ::setenv(name_.c_str(), value->c_str(), 1);
    else
      ::unsetenv(name_.c_str());
  }
  ~ScopedEnv() {
    if (old_)
      ::setenv(name_.c_str(), old_->c_str(), 1);
    else
      ::unsetenv(name_.c_str());
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::string name_;
  std::optional<std::string> old_;
};

const char* const kLauncherVars[] = {"PMI_RANK",        "PMI_SIZE",
                                     "PMIX_RANK",       "OMPI_COMM_WORLD_SIZE",
                                     "MPI_LOCALNRANKS", "SLURM_STEP_ID"};

std::string not_found_message(const std::string& requested) {
  try {
    const std::string found = find_mpiexec(requested);
    ADD_FAILURE() << "found " << found;
  } catch (const RuntimeError& e) {
    return e.what();
  }
  return {};
}

TEST(FindMpiexec, ResolvesOnPath) {
  ScopedEnv no_override("COMOPS_MPIEXEC", std::nullopt);
  const std::string path = find_mpiexec(kDefaultMpiexec);
  EXPECT_NE(path.find('/'), std::string::npos) << path;
  EXPECT_EQ(fs::path(path).filename(), kDefaultMpiexec);
  EXPECT_TRUE(fs::exists(path)) << path;
  EXPECT_EQ(::access(path.c_str(), X_OK), 0) << path;
  EXPECT_EQ(find_mpiexec(""), path);  // the default name is the built MPI's launcher
}

// The default launcher belongs to the MPI comops was built against (-DCOMOPS_MPI).
TEST(FindMpiexec, DefaultIsTheBuiltMpisLauncher) {
#ifdef OPEN_MPI
  EXPECT_STREQ(kDefaultMpiexec, "mpiexec.openmpi");  // Debian's name (cmake/comops_mpi.cmake)
#else
  EXPECT_STREQ(kDefaultMpiexec, "mpiexec");
#endif
}

// What the launcher comops starts itself under gets in its environment: nothing for MPICH's
// Hydra; for Open MPI oversubscription, no binding and, as root, the permission to run as root,
// each unless the environment already sets it.
TEST(LauncherEnvironment, SettingsOfTheBuiltMpi) {
  using Settings = std::vector<std::pair<std::string, std::string>>;
  ScopedEnv a("OMPI_MCA_rmaps_base_oversubscribe", std::nullopt);
  ScopedEnv b("OMPI_MCA_hwloc_base_binding_policy", std::nullopt);
  ScopedEnv c("OMPI_ALLOW_RUN_AS_ROOT", std::nullopt);
  ScopedEnv d("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", std::nullopt);
#ifdef OPEN_MPI
  const Settings user = {{"OMPI_MCA_rmaps_base_oversubscribe", "1"},
                         {"OMPI_MCA_hwloc_base_binding_policy", "none"}};
  Settings root = user;
  root.insert(root.end(),
              {{"OMPI_ALLOW_RUN_AS_ROOT", "1"}, {"OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"}});
  EXPECT_EQ(launcher_environment(false), user);
  EXPECT_EQ(launcher_environment(true), root);
  ScopedEnv own("OMPI_MCA_hwloc_base_binding_policy", "core");  // the user's choice wins
  EXPECT_EQ(launcher_environment(false), (Settings{{"OMPI_MCA_rmaps_base_oversubscribe", "1"}}));
#else
  EXPECT_EQ(launcher_environment(false), Settings{});
  EXPECT_EQ(launcher_environment(true), Settings{});
#endif
}

TEST(FindMpiexec, AbsolutePathIsKept) {
  const std::string path = find_mpiexec("mpiexec");
  EXPECT_EQ(find_mpiexec(path), path);
}

TEST(FindMpiexec, MissingAbsolutePathThrows) {
  const std::string msg = not_found_message("/nonexistent/mpiexec");
  EXPECT_NE(msg.find("MPI launcher '/nonexistent/mpiexec' not found"), std::string::npos) << msg;
  EXPECT_NE(msg.find("--mpiexec"), std::string::npos) << msg;
}

TEST(FindMpiexec, NonExecutableFileThrows) {
  char tmpl[] = "/tmp/comops_unit_launcher_XXXXXX";
  const int fd = ::mkstemp(tmpl);
  ASSERT_GE(fd, 0);
  ::close(fd);
  const std::string msg = not_found_message(tmpl);
  EXPECT_NE(msg.find("not found"), std::string::npos) << msg;
  ::unlink(tmpl);
}

TEST(FindMpiexec, EnvironmentOverride) {
  const std::string real = find_mpiexec("mpiexec");
  {
    ScopedEnv env("COMOPS_MPIEXEC", real);
    EXPECT_EQ(find_mpiexec(""), real);
    EXPECT_EQ(find_mpiexec("mpiexec"), real);  // an explicit request wins over the variable
  }
  {
    ScopedEnv env("COMOPS_MPIEXEC", "/nonexistent/launcher");
    EXPECT_NE(not_found_message("").find("'/nonexistent/launcher' not found"), std::string::npos);
  }
  {
    ScopedEnv env("COMOPS_MPIEXEC", "");  // empty: the default name
    EXPECT_EQ(find_mpiexec(""), find_mpiexec(kDefaultMpiexec));
  }
}

TEST(FindMpiexec, EmptyPathDirThrows) {
  char tmpl[] = "/tmp/comops_unit_path_XXXXXX";
  ASSERT_NE(::mkdtemp(tmpl), nullptr);
  const std::string before = std::getenv("PATH") ? std::getenv("PATH") : "";
  {
    ScopedEnv no_override("COMOPS_MPIEXEC", std::nullopt);
    ScopedEnv path("PATH", std::string(tmpl));
    const std::string msg = not_found_message("");
    EXPECT_NE(msg.find(std::string("MPI launcher '") + kDefaultMpiexec + "' not found"),
              std::string::npos)
        << msg;
    EXPECT_NE(not_found_message("mpiexec").find("not found"), std::string::npos);
  }
  EXPECT_EQ(std::string(std::getenv("PATH") ? std::getenv("PATH") : ""), before);
  fs::remove(tmpl);
}

// Hydra's own flags in a launcher command: refused, naming Open MPI's counterpart, in an Open MPI
// build; passed through to Hydra in an MPICH build.
TEST(LauncherCommand, HydraFlagsOfAnOpenMpiBuild) {
  const std::vector<std::string> hydra = {"mpiexec", "-f", "hosts", "-iface", "br0"};
  const std::vector<std::string> ompi = {"mpiexec", "--hostfile", "hosts", "-x", "A=1"};
  EXPECT_NO_THROW(check_launcher_flags(ompi));
#ifdef OPEN_MPI
  try {
    check_launcher_flags(hydra);
    ADD_FAILURE() << "-f accepted";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(),
                 "launcher option -f is MPICH Hydra's; this comops is built against Open MPI, "
                 "whose mpiexec takes --hostfile FILE");
  }
  for (const char* flag : {"-launcher-exec", "-iface", "-genv", "-ppn"})
    EXPECT_THROW(check_launcher_flags({"mpiexec", flag, "x"}), UsageError) << flag;
  EXPECT_THROW(launcher_command(std::string(kDefaultMpiexec) + " -genv A 1"), UsageError);
#else
  EXPECT_NO_THROW(check_launcher_flags(hydra));
#endif
}

// The options that pass a variant's variables to every rank: Open MPI's mpiexec needs -x for
// each (its ranks on other hosts get only those); Hydra passes the whole environment.
TEST(LauncherCommand, ExportFlagsOfTheBuildsLauncher) {
  const std::vector<std::string> flags = launcher_export_flags({"UCX_TLS", "COMOPS_VARIANT_JOB"});
#ifdef OPEN_MPI
  EXPECT_EQ(flags, (std::vector<std::string>{"-x", "UCX_TLS", "-x", "COMOPS_VARIANT_JOB"}));
#else
  EXPECT_EQ(flags, std::vector<std::string>{});
#endif
}

TEST(AllocationTasks, ReadsSlurmNtasks) {
  {
    ScopedEnv env("SLURM_NTASKS", "32");
    EXPECT_EQ(allocation_tasks(), 32);
  }
  for (const char* bad : {"", "x", "4x", "-2", "0"}) {
    ScopedEnv env("SLURM_NTASKS", bad);
    EXPECT_EQ(allocation_tasks(), 0) << bad;
  }
}

TEST(LauncherCommand, SplitsWordsAndResolvesTheProgram) {
  const std::string mpiexec = find_mpiexec("mpiexec");
  EXPECT_EQ(launcher_command("mpiexec -hosts a,b  -bind-to core"),
            (std::vector<std::string>{mpiexec, "-hosts", "a,b", "-bind-to", "core"}));
  ScopedEnv env("COMOPS_MPIEXEC", "mpiexec  -bind-to core");
  EXPECT_EQ(launcher_command(""), (std::vector<std::string>{mpiexec, "-bind-to", "core"}));
  EXPECT_THROW(launcher_command("/nonexistent/mpiexec -n 2"), RuntimeError);
}

TEST(UnderLauncher, DetectsLauncherVariables) {
  std::vector<std::unique_ptr<ScopedEnv>> cleared;
  for (const char* var : kLauncherVars)
    cleared.push_back(std::make_unique<ScopedEnv>(var, std::nullopt));
  EXPECT_FALSE(under_launcher());
  for (const char* var : kLauncherVars) {
    ScopedEnv set(var, "0");
    EXPECT_TRUE(under_launcher()) << var;
  }
  EXPECT_FALSE(under_launcher());
}

}  // namespace
}  // namespace comops

TEST(HostNameResolution, LocalhostResolvesFromTheHostsFile) {
  // "localhost" is in every /etc/hosts: no name server is asked.
  EXPECT_EQ(comops::host_name_resolution_error("localhost"), "");
}

TEST(LauncherCommand, HostfilesAndLaunchersMayStartRemoteProxies) {
  ::unsetenv("SLURM_NTASKS");
  EXPECT_FALSE(comops::launches_remote_proxies({"/usr/bin/mpiexec"}));
  EXPECT_FALSE(comops::launches_remote_proxies({"/usr/bin/mpiexec", "-genv", "A", "1"}));
  EXPECT_TRUE(comops::launches_remote_proxies({"/usr/bin/mpiexec", "-f", "hosts"}));
  EXPECT_TRUE(comops::launches_remote_proxies({"/usr/bin/mpiexec", "--hostfile", "hosts"}));
  EXPECT_TRUE(comops::launches_remote_proxies({"/usr/bin/mpiexec", "-hosts", "a,b"}));
  EXPECT_TRUE(comops::launches_remote_proxies(
      {"/usr/bin/mpiexec", "-launcher", "ssh", "-launcher-exec", "/x/ssh"}));
  ::setenv("SLURM_NTASKS", "4", 1);
  EXPECT_TRUE(comops::launches_remote_proxies({"/usr/bin/mpiexec"}));
  ::unsetenv("SLURM_NTASKS");
}
