// Open MPI's boxed end-of-job notices leave the launcher's stderr; everything else passes on at
// once and unchanged (harness/launch/launcher_notices.hpp).
#include <gtest/gtest.h>

#include <string>

#include "harness/launch/launcher_notices.hpp"

namespace comops {
namespace {

const std::string kRule(74, '-');
// As Open MPI 4.1's mpiexec prints them after a rank exited with code 2.
const std::string kNonZero =
    kRule + "\nPrimary job  terminated normally, but 1 process returned\n" +
    "a non-zero exit code. Per user-direction, the job has been aborted.\n" + kRule + "\n" + kRule +
    "\nmpiexec.openmpi detected that one or more processes exited with "
    "non-zero status, thus causing\nthe job to be terminated. The first "
    "process to do so was:\n\n  Process name: [[27068,1],1]\n  Exit "
    "code:    2\n" +
    kRule + "\n";
const std::string kLost = kRule +
                          "\nmpiexec.openmpi noticed that process rank 1 with PID 0 on node vm "
                          "exited on signal 9 (Killed).\n" +
                          kRule + "\n";

const std::string kAbort = kRule +
                           "\nMPI_ABORT was invoked on rank 1 in communicator MPI_COMM_WORLD\nwith "
                           "errorcode 3.\n\nNOTE: invoking MPI_ABORT causes Open MPI to kill all "
                           "MPI processes.\n" +
                           kRule + "\n";

// Feeds `text` in pieces of `step` bytes; returns all that was passed on, flush included.
std::string filtered(const std::string& text, std::size_t step) {
  LauncherNoticeFilter f;
  std::string out;
  for (std::size_t at = 0; at < text.size(); at += step) out += f.feed(text.substr(at, step));
  return out + f.flush();
}

TEST(LauncherNotices, DropsTheNonZeroExitBoxesOnly) {
  const std::string line = "comops: error: np=4 needs 4 MPI processes\n";
  for (std::size_t step : {1u, 7u, 75u, 4096u}) {
    EXPECT_EQ(filtered(line + kNonZero, step), line) << step;
    EXPECT_EQ(filtered(kNonZero + line, step), line) << step;
    EXPECT_EQ(filtered(line + kAbort, step), line) << step;
    // The report of a lost rank stays (comops reads it, and it says more than the exit code).
    EXPECT_EQ(filtered(line + kLost + kNonZero, step), line + kLost) << step;
    // Dashes that open no box, progress lines without a newline, and a box cut short pass on.
    const std::string other = "-- not a rule\n\rpoint 3/9 " + kRule + "\n" + "--";
    EXPECT_EQ(filtered(other, step), other) << step;
    EXPECT_EQ(filtered(kRule + "\nunfinished", step), kRule + "\nunfinished") << step;
  }
}

// When several ranks abort at once, Open MPI 4.1's launcher now and then loses its MPI_ABORT box
// and prints this line instead; it goes too. Other bracketed lines (UCX's, Open MPI's own
// reports) pass on unchanged.
TEST(LauncherNotices, DropsTheLinesOfALostNotice) {
  const std::string line = "comops: error: injected failure of participant 1 (world rank 1)\n";
  const std::string lost =
      "[vm:01343] [[27073,0],0] ORTE_ERROR_LOG: Data unpack had inadequate space in file "
      "../../../orte/util/show_help.c at line 513\n";
  const std::string other =
      "[vm:4174] *** Process received signal ***\n[1796.1] [vm:1:0] tag_match.c:62 UCX WARN x\n";
  for (std::size_t step : {1u, 9u, 4096u}) {
    EXPECT_EQ(filtered(line + lost, step), line) << step;
    EXPECT_EQ(filtered(lost + lost + line + kAbort, step), line) << step;
    EXPECT_EQ(filtered(other + lost, step), other) << step;
    EXPECT_EQ(filtered("[unfinished", step), "[unfinished") << step;
  }
}

TEST(LauncherNotices, PassesLinesOnAtOnce) {
  LauncherNoticeFilter f;
  EXPECT_EQ(f.feed("point 1"), "point 1");     // a partial line is not held
  EXPECT_EQ(f.feed(" done\n---"), " done\n");  // dashes at a line start wait for their line
  EXPECT_EQ(f.feed("x\n"), "---x\n");
  EXPECT_EQ(f.feed(kRule.substr(0, 10)), "");
  EXPECT_EQ(f.flush(), kRule.substr(0, 10));
}

}  // namespace
}  // namespace comops
