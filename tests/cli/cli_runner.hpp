// Running the real comops binary from a test: exit code, stdout and stderr, and a fresh scratch
// directory per test.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace comops_test {

/// What one run of comops ended with.
struct Outcome {
  int code = -1;  ///< exit code, or 128 + signal
  std::string out;
  std::string err;
};

/// The file's whole text ("" when it cannot be read).
std::string slurp(const std::filesystem::path& p);
/// The running test's own path of `kind` ("scratch", "io" or "hosts") in $TMPDIR or /tmp,
/// named by kind, process and test. Removed when the test passes; kept (and named on stderr) when
/// it fails.
std::filesystem::path test_path(const char* kind);
/// A new empty directory for the running test (its earlier contents removed).
std::filesystem::path scratch();
/// Runs comops with `args` (shell words) after `env` (shell assignments or a command prefix such
/// as "timeout 60"), stdin from /dev/null.
Outcome comops(const std::string& args, const std::string& env = "");
/// Number of newline characters in s.
int lines(const std::string& s);
/// Bad input: exit 2 and exactly one line on stderr holding "comops: error: " + message.
void expect_usage_error(const std::string& args, const std::string& message);

/// Two nodes of two ranks on this machine: a hostfile of two made-up hosts and a launcher that
/// runs each host's proxy here (MPICH then splits MPI_COMM_TYPE_SHARED into two nodes); the
/// launch prefix for comops(). Hydra's -launcher-exec has no counterpart in Open MPI's mpiexec
/// that makes two nodes of one machine: guard a test with SKIP_WITHOUT_HYDRA().
std::string two_node_mpiexec();

#define SKIP_WITHOUT_HYDRA()                                                                    \
  if (std::string_view(COMOPS_TEST_MPI) != "mpich")                                             \
  GTEST_SKIP() << "two made-up hosts need MPICH's Hydra (-launcher-exec); this build's MPI is " \
               << COMOPS_TEST_MPI

/// A short, valid mpi run at np 2.
constexpr const char* kQuick = "--backend=mpi --np=2 -n 5 -w 1 -r 2 --no-limits";

}  // namespace comops_test
