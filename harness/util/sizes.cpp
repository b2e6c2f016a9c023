// Size parsing with K/M/G suffixes and geometric size sweeps.
#include "harness/util/sizes.hpp"

#include <fmt/format.h>

#include <cctype>
#include <limits>

#include "comops/op.hpp"

namespace comops {

std::size_t parse_size(const std::string& text) {
  auto bad = [&](const char* why) {
    return UsageError(fmt::format("invalid size '{}': {}", text, why));
  };
  std::size_t i = 0;
  unsigned long long value = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
    const unsigned digit = static_cast<unsigned>(text[i] - '0');
    if (value > (std::numeric_limits<unsigned long long>::max() - digit) / 10)
      throw bad("too large");
    value = value * 10 + digit;
    ++i;
  }
  if (i == 0) throw bad("expected a number of bytes, optionally followed by K, M or G");
  unsigned shift = 0;
  if (i < text.size()) {
    switch (std::toupper(static_cast<unsigned char>(text[i]))) {
      case 'K':
        shift = 10;
        break;
      case 'M':
        shift = 20;
        break;
      case 'G':
        shift = 30;
        break;
      case 'B':
        break;
      default:
        throw bad("expected a number of bytes, optionally followed by K, M or G");
    }
    if (shift != 0) ++i;
    if (i < text.size() && std::toupper(static_cast<unsigned char>(text[i])) == 'B') ++i;
    if (i != text.size()) throw bad("unexpected characters after the unit");
  }
  if (value == 0) throw bad("must be at least 1 byte");
  if (value > (std::numeric_limits<std::size_t>::max() >> shift)) throw bad("too large");
  return static_cast<std::size_t>(value) << shift;
}

std::string format_size(std::size_t bytes) {
  static constexpr const char* kSuffix[] = {"", "K", "M", "G"};
  int s = 0;
  while (s < 3 && bytes != 0 && bytes % 1024 == 0) {
    bytes /= 1024;
    ++s;
  }
  return fmt::format("{}{}", bytes, kSuffix[s]);
}

std::vector<std::size_t> geometric_sizes(std::size_t min_bytes, std::size_t max_bytes,
                                         std::size_t factor) {
  if (min_bytes > max_bytes)
    throw UsageError(fmt::format("--min-bytes {} is larger than --max-bytes {}",
                                 format_size(min_bytes), format_size(max_bytes)));
  if (factor < 2) throw UsageError(fmt::format("--step-factor {} must be at least 2", factor));
  std::vector<std::size_t> sizes;
  for (std::size_t s = min_bytes; s <= max_bytes; s *= factor) {
    sizes.push_back(s);
    if (s > max_bytes / factor) break;
  }
  if (sizes.back() != max_bytes) sizes.push_back(max_bytes);
  return sizes;
}

void check_element_multiple(const std::vector<std::size_t>& sizes) {
  for (auto s : sizes)
    if (s % kElemBytes != 0)
      throw UsageError(fmt::format(
          "size {} is not a multiple of {} bytes (every op moves 8-byte integers)", s, kElemBytes));
}

}  // namespace comops
