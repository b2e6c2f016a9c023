// Parsing an shm family's scheme list.
#include "comops/shm/scheme_option.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace comops::shm {

std::vector<Scheme> parse_schemes(const std::string& option,
                                  const std::vector<std::string>& names) {
  if (names.empty())
    throw UsageError(fmt::format("{}: give at least one of staged, direct", option));
  std::vector<Scheme> out;
  for (const auto& s : names) {
    if (s != "staged" && s != "direct")
      throw UsageError(
          fmt::format("{}: unknown shm scheme '{}' (expected staged or direct)", option, s));
    const Scheme scheme = s == "staged" ? Scheme::kStaged : Scheme::kDirect;
    if (std::find(out.begin(), out.end(), scheme) == out.end()) out.push_back(scheme);
  }
  return out;
}

}  // namespace comops::shm
