// Parsing the shm families' options: a scheme list, a window cap.
#include "comops/shm/scheme_option.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <limits>

#include "comops/shm/shared_block.hpp"

namespace comops::shm {

namespace {

// A size as comops writes them; throws UsageError naming option.
std::size_t parse_size(const std::string& option, const std::string& text) {
  const auto bad = [&] {
    return UsageError(fmt::format(
        "{}: invalid size '{}' (bytes, optionally followed by K, M, G or T)", option, text));
  };
  const auto upper = [&](std::size_t i) {
    return std::toupper(static_cast<unsigned char>(text[i]));
  };
  constexpr std::size_t kMax = std::numeric_limits<std::size_t>::max();
  std::size_t i = 0, value = 0;
  for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
    const auto digit = static_cast<std::size_t>(text[i] - '0');
    if (value > (kMax - digit) / 10) throw bad();
    value = value * 10 + digit;
  }
  if (i == 0) throw bad();
  unsigned shift = 0;
  if (const auto unit = i < text.size() ? std::string("KMGT").find(static_cast<char>(upper(i)))
                                        : std::string::npos;
      unit != std::string::npos) {
    shift = 10 * static_cast<unsigned>(unit + 1);
    ++i;
  }
  if (i < text.size() && upper(i) == 'B') ++i;
  if (i != text.size() || value > (kMax >> shift)) throw bad();
  return value << shift;
}

}  // namespace

std::size_t parse_window_max(const std::string& option, const std::string& text) {
  const std::size_t bytes = parse_size(option, text);
  if (bytes < kPageBytes)
    throw UsageError(
        fmt::format("{} must be at least {} bytes (one page), not {}", option, kPageBytes, bytes));
  return bytes;
}

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
