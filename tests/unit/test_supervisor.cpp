// How the supervising process judges a finished job (harness/launch/supervisor.hpp judge_job): lost
// ranks named from the launcher's report and the rank table, signals, launchers that failed or
// ran nothing, and comops' own exit codes passed through.
#include <gtest/gtest.h>
#include <signal.h>

#include "harness/launch/supervisor.hpp"

namespace comops {
namespace {

constexpr const char* kTable =
    R"([{"rank":0,"host":"h1","pid":100},{"rank":1,"host":"h1","pid":101},)"
    R"({"rank":2,"host":"h2","pid":100},{"rank":3,"host":"h2","pid":103}])";

// Hydra's report of a process that ended badly (as MPICH 4.0 prints it on stdout).
std::string hydra_report(int pid, const std::string& host, int code) {
  return "rows...\n\n====\n=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES\n=   PID " +
         std::to_string(pid) + " RUNNING AT " + host + "\n=   EXIT CODE: " + std::to_string(code) +
         "\n=   CLEANING UP REMAINING PROCESSES\n";
}

constexpr int kExit0 = 0, kExit1 = 1 << 8, kExit2 = 2 << 8, kExit255 = 255 << 8;

TEST(JudgeJob, LostRankIsNamedByPidAndHost) {
  int code = -1;
  EXPECT_EQ(judge_job(kExit255, hydra_report(100, "h2", 9), kTable, 0, &code),
            "comops: error: lost rank 2 (pid 100 on host h2): it ended with code 9, which Hydra "
            "also reports for signal 9 (SIGKILL) and the launcher ended the job; the rows measured "
            "before are in the output files");
  EXPECT_EQ(code, 3);
  // The launcher's host names differ from the ranks' (a hostfile alias): an unambiguous pid.
  EXPECT_NE(judge_job(kExit255, hydra_report(103, "alias", 9), kTable, 0, &code)
                .find("lost rank 3 (pid 103 on host alias)"),
            std::string::npos);
  // Ambiguous or unknown: still one line, without a rank number.
  EXPECT_NE(judge_job(kExit255, hydra_report(100, "alias", 9), kTable, 0, &code)
                .find("lost a rank (pid 100 on host alias)"),
            std::string::npos);
  EXPECT_NE(judge_job(kExit255, hydra_report(7, "h9", 9), "", 0, &code)
                .find("lost a rank (pid 7 on host h9)"),
            std::string::npos);
  EXPECT_EQ(code, 3);
}

// Open MPI's mpiexec reports a killed process by rank (on stderr), after its own abort notice.
TEST(JudgeJob, LostRankUnderOpenMpiIsNamedByItsReport) {
  const std::string report =
      "--------------------------------------------------------------------------\n"
      "Primary job  terminated normally, but 1 process returned\na non-zero exit code. Per "
      "user-direction, the job has been aborted.\n"
      "--------------------------------------------------------------------------\n"
      "mpiexec.openmpi noticed that process rank 3 with PID 4711 on node h2 exited on signal 9 "
      "(Killed).\n";
  int code = -1;
  EXPECT_EQ(judge_job(137 << 8, report, kTable, 0, &code),
            "comops: error: lost rank 3 (pid 4711 on host h2): it was killed by signal 9 "
            "(SIGKILL) and the launcher ended the job; the rows measured before are in the output "
            "files");
  EXPECT_EQ(code, 3);
  EXPECT_EQ(judge_job(137 << 8, report, "", 0, &code).rfind("comops: error: lost rank 3 ", 0),
            0u);  // the rank is Open MPI's: no rank table needed
  // Open MPI 4.1 may report PID 0: the rank table's process and host then.
  std::string pid0 = report;
  pid0.replace(pid0.find("PID 4711"), 8, "PID 0");
  EXPECT_EQ(judge_job(137 << 8, pid0, kTable, 0, &code)
                .rfind("comops: error: lost rank 3 (pid 103 on host h2): it was killed by signal 9 "
                       "(SIGKILL)",
                       0),
            0u);
  EXPECT_EQ(judge_job(137 << 8, pid0, "", 0, &code).rfind("comops: error: lost rank 3 (pid 0 ", 0),
            0u);
}

TEST(JudgeJob, HydraExitStringNamesTheSignal) {
  int code = -1;
  const std::string report = hydra_report(101, "h1", 9) +
                             "===\nYOUR APPLICATION TERMINATED WITH THE EXIT STRING: Killed "
                             "(signal 9)\nThis typically refers to a problem\n";
  EXPECT_EQ(judge_job(kExit255, report, kTable, 0, &code),
            "comops: error: lost rank 1 (pid 101 on host h1): it was killed by signal 9 (SIGKILL) "
            "and the launcher ended the job; the rows measured before are in the output files");
  EXPECT_EQ(code, 3);
}

TEST(JudgeJob, TheLineCountsTheRowsKept) {
  int code = -1;
  EXPECT_EQ(judge_job(kExit255, hydra_report(100, "h2", 9), kTable, 0, &code, 3),
            "comops: error: lost rank 2 (pid 100 on host h2): it ended with code 9, which Hydra "
            "also reports for signal 9 (SIGKILL) and the launcher ended the job; the 3 rows "
            "measured before are in the output files");
  // A code no signal has: the code alone.
  EXPECT_EQ(judge_job(kExit255, hydra_report(100, "h2", 255), kTable, 0, &code, 3),
            "comops: error: lost rank 2 (pid 100 on host h2): it ended with code 255 and the "
            "launcher ended the job; the 3 rows measured before are in the output files");
  const std::string one = judge_job(kExit255, hydra_report(100, "h2", 9), kTable, 0, &code, 1);
  EXPECT_EQ(one.substr(one.find("; ") + 2), "the 1 row measured before is in the output files");
  EXPECT_EQ(judge_job(kExit255, "", "", SIGINT, &code, 0),
            "comops: error: interrupted by SIGINT; nothing had been measured");
  EXPECT_EQ(code, 130);
}

// A host named by its address (a hostfile of IP addresses) with a pid that several hosts' ranks
// share (a PID namespace per host): the rank whose host resolves to that address.
TEST(JudgeJob, LostRankOnAHostNamedByItsAddress) {
  constexpr const char* table = R"([{"rank":0,"host":"comops-no-such-host.invalid","pid":4},)"
                                R"({"rank":1,"host":"localhost","pid":4}])";
  int code = -1;
  EXPECT_EQ(judge_job(kExit255, hydra_report(4, "127.0.0.1", 9), table, 0, &code)
                .rfind("comops: error: lost rank 1 (pid 4 on host 127.0.0.1): ", 0),
            0u);
}

// A rank's watchdog printed why it ends the job: the supervisor adds no line of its own.
TEST(JudgeJob, AWatchdogLineStandsAlone) {
  int code = -1;
  const std::string err = "comops: error: rank 1 on host h1 made no progress for 61 s in ...\n" +
                          hydra_report(101, "h1", 3);
  EXPECT_EQ(judge_job(kExit255, err, kTable, 0, &code), "");
  EXPECT_EQ(code, 3);
}

TEST(JudgeJob, SignalsForwardedGiveShellCodes) {
  int code = -1;
  EXPECT_EQ(judge_job(kExit255, "", kTable, SIGINT, &code),
            "comops: error: interrupted by SIGINT; the rows measured before are in the output "
            "files");
  EXPECT_EQ(code, 130);
  EXPECT_NE(judge_job(kExit0, "", kTable, SIGTERM, &code).find("SIGTERM"), std::string::npos);
  EXPECT_EQ(code, 143);
}

TEST(JudgeJob, LaunchersThatFailedOrRanNothing) {
  int code = -1;
  EXPECT_EQ(judge_job(kExit0, "", "", 0, &code),
            "comops: error: the launcher ran no comops rank (nothing was measured)");
  EXPECT_EQ(code, 3);
  EXPECT_EQ(judge_job(kExit1, "", "", 0, &code),
            "comops: error: the launcher failed with exit code 1 before comops started");
  EXPECT_EQ(code, 3);
  EXPECT_EQ(judge_job(kExit255, "", kTable, 0, &code),
            "comops: error: the launcher failed with exit code 255");
  EXPECT_EQ(code, 3);
  EXPECT_EQ(judge_job(SIGKILL, "", kTable, 0, &code),  // the launcher itself killed
            "comops: error: the launcher was killed by signal 9 (SIGKILL)");
  EXPECT_EQ(code, 3);
}

TEST(JudgeJob, ComopsOwnCodesPassThroughWithoutALine) {
  int code = -1;
  EXPECT_EQ(judge_job(kExit0, "tables\n", kTable, 0, &code), "");
  EXPECT_EQ(code, 0);
  EXPECT_EQ(judge_job(kExit1, "", kTable, 0, &code), "");
  EXPECT_EQ(code, 1);
  EXPECT_EQ(judge_job(kExit2, "", kTable, 0, &code), "");
  EXPECT_EQ(code, 2);
}

}  // namespace
}  // namespace comops
