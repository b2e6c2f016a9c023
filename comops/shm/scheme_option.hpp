// The schemes an shm family's option names (--scheme for threads, --shmp-scheme for processes).
#pragma once

#include <string>
#include <vector>

#include "comops/shm/shm_op.hpp"

namespace comops::shm {

/// The schemes of `names` (staged, direct), each once in the order first given; throws UsageError
/// naming `option` for an empty list or an unknown name.
std::vector<Scheme> parse_schemes(const std::string& option, const std::vector<std::string>& names);

/// The help text of such an option.
inline constexpr const char* kSchemeHelp =
    "comma separated: staged (copy through a shared buffer, the paper's) and/or direct (single "
    "copy, point-to-point flags)";

}  // namespace comops::shm
