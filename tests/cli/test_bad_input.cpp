// Bad input that once slipped through: empty values, negative unsigned values, options of a
// backend that is not selected, a self-launch far beyond the cores, launchers that ran nothing.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "cli_runner.hpp"

namespace {

using namespace comops_test;  // comops(), scratch(), slurp(), lines(), kQuick ...

TEST(BadInput, EmptyValuesAreUsageErrors) {
  for (const char* option :
       {"--sizes", "--json", "--csv", "--gbench-json", "--output-dir", "--np", "--np-bytes",
        "--mpiexec", "--bind", "--scheme", "--block-size", "--sync"})
    expect_usage_error(fmt::format("--backend=all --op=barrier {} ''", option),
                       fmt::format("{} needs a value, not an empty one", option));
  expect_usage_error("--sizes=", "--sizes: 1 required LIST missing");
}

TEST(BadInput, NegativeValuesOfUnsignedOptionsAreUsageErrors) {
  expect_usage_error("--seed=-1", "--seed: must be 0 or more, not -1");
  expect_usage_error("--step-factor=-2", "--step-factor: must be 0 or more, not -2");
}

TEST(BadInput, OptionsOfAnUnselectedBackendAreUsageErrors) {
  expect_usage_error("--backend=swcc --scheme=direct",
                     "--scheme applies to the shm backend, which --backend does not select");
  expect_usage_error("--backend=mpi --block-size=3",
                     "--block-size applies to the swcc backend, which --backend does not select");
  expect_usage_error("--backend=mpi,shm --uncached",
                     "--uncached applies to the swcc backend, which --backend does not select");
}

TEST(BadInput, SelfLaunchBeyondSixteenPerCoreIsAUsageError) {
  // Cores as this process sees them: taskset pins the run to one core, so the limit is 16.
  const Outcome o =
      comops("--backend=mpi --op=barrier --np=17 -n 1 -r 1 --no-limits", "taskset -c 0");
  EXPECT_EQ(o.code, 2) << o.err;
  EXPECT_EQ(lines(o.err), 1) << o.err;
  EXPECT_NE(o.err.find("comops: error: np=17 would launch 17 processes on 1 core; comops launches "
                       "itself at most 16 per core (16 here): start it under your launcher "
                       "(mpiexec -n 17 comops ...) to run more"),
            std::string::npos)
      << o.err;
  // In a Slurm allocation the limit counts its tasks.
  const Outcome s =
      comops("--backend=mpi --op=barrier --np=100000 -n 1 -r 1 --no-limits", "SLURM_NTASKS=3");
  EXPECT_EQ(s.code, 2) << s.err;
  EXPECT_NE(s.err.find("on 3 allocated tasks; comops launches itself at most 16 per allocated "
                       "task (48 here)"),
            std::string::npos)
      << s.err;
}

TEST(BadInput, LaunchersThatRanNothingOrFailedAreRuntimeErrors) {
  const Outcome t = comops(fmt::format("{} --op=barrier --mpiexec=/bin/true", kQuick));
  EXPECT_EQ(t.code, 3);
  EXPECT_EQ(t.err, "comops: error: the launcher ran no comops rank (nothing was measured)\n");
  const Outcome f = comops(fmt::format("{} --op=barrier --mpiexec=/bin/false", kQuick));
  EXPECT_EQ(f.code, 3);
  EXPECT_EQ(f.err, "comops: error: the launcher failed with exit code 1 before comops started\n");
}

// A comops built against Open MPI refuses Hydra's own launcher options, naming Open MPI's.
TEST(BadInput, HydraOptionsOfAnOpenMpiLauncherAreUsageErrors) {
  if (std::string_view(COMOPS_TEST_MPI) != "openmpi")
    GTEST_SKIP() << "Hydra's options are MPICH's own; this build's MPI is " << COMOPS_TEST_MPI;
  const Outcome o =
      comops(fmt::format("{} --op=barrier --mpiexec='{} -iface br0'", kQuick, COMOPS_MPIEXEC));
  EXPECT_EQ(o.code, 2);
  EXPECT_EQ(o.err,
            "comops: error: launcher option -iface is MPICH Hydra's; this comops is built against "
            "Open MPI, whose mpiexec takes --mca btl_tcp_if_include IFACE --mca oob_tcp_if_include "
            "IFACE\n");
}

}  // namespace
