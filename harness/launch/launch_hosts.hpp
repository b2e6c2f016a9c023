// The hosts a launcher command names (MPICH Hydra's -f/-hostfile/-machinefile FILE and
// -hosts/-host LIST, with one dash or two), for the start-up bound's line: which of them never
// started a rank.
#pragma once

#include <string>
#include <vector>

namespace comops {

/// The hosts `words` (a launcher command) names, each once, in order: a hostfile's "HOST[:N]"
/// lines (blank lines and '#' comments skipped), a list's "HOST[:N],..." entries. Empty when it
/// names none or the hostfile cannot be read.
std::vector<std::string> launcher_hosts(const std::vector<std::string>& words);

}  // namespace comops
