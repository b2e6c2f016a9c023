// The launcher's own end-of-job notices that repeat what comops already said in its one line:
// Open MPI's mpiexec prints, after ranks exited with a non-zero code (comops' agreed 1, 2 or 3),
// two boxed notices ("Primary job terminated normally, but 1 process returned a non-zero exit
// code..." and "... detected that one or more processes exited with non-zero status...") and,
// after a participant's failure aborted the job, "MPI_ABORT was invoked on rank 1 ..." (or, when
// its launcher loses that notice, an "ORTE_ERROR_LOG: ... show_help.c" line instead). The
// supervisor (harness/launch/supervisor.cpp) passes the launcher's stderr through this filter,
// which drops exactly those boxes (and lines) and passes everything else on at once, byte for byte
// (a line that starts with "[" once it is complete).
#pragma once

#include <string>
#include <string_view>

namespace comops {

class LauncherNoticeFilter {
 public:
  /// The part of `chunk` (appended to what came before) that can be passed on now. A line of
  /// dashes that opens a box is held, with the box, until the box closes.
  std::string feed(std::string_view chunk);
  /// Whatever is still held (a box that never closed), at the end of the stream.
  std::string flush();

 private:
  std::string held_;        // an unfinished line of dashes or an open box
  bool line_start_ = true;  // the next byte passed on starts a line
  bool in_box_ = false;
};

}  // namespace comops
