// The options of the shm families and of the backends built on their process teams: the schemes
// (--scheme for threads, --shmp-scheme for processes) and the shared windows' cap
// (--shmp-window-max, --hybrid-window-max).
#pragma once

#include <cstddef>
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

/// The bytes of a window-cap option (8, 64K, 4G: K/M/G/T = 1024^n, either case, an optional B);
/// throws UsageError naming `option` for a bad size or one under a page.
std::size_t parse_window_max(const std::string& option, const std::string& text);

/// The help text of such an option.
inline constexpr const char* kWindowMaxHelp =
    "Most bytes a point's shared windows (the participants' buffers and the op's shared state) "
    "may hold together on a node; K/M/G/T = 1024. A point past it, or past what /dev/shm has "
    "left, fails with exit 3";

}  // namespace comops::shm
