// The coherence block sizes the DSM is compiled for, the default one, and the one run-time
// dispatch from a block size to its compiled constant (Dsm<B>, and the ops built on it).
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>

#include "swcc/errors.hpp"

namespace swcc {

/// Every block size the access paths are instantiated for, in bytes.
inline constexpr std::array<std::size_t, 5> kBlockSizes{8, 64, 256, 1024, 4096};
/// The block size of a Config that names none (and of comops's --block-size).
inline constexpr std::size_t kDefaultBlockBytes = 64;

constexpr bool valid_block_bytes(std::size_t bytes) {
  for (std::size_t b : kBlockSizes)
    if (b == bytes) return true;
  return false;
}

/// The table as text, "8, 64, 256, 1024, 4096" with `separator` between the sizes.
std::string block_sizes_text(const char* separator = ", ");

/// The message of a ConfigError for `bytes`: "swcc: block size 3 not one of 8, 64, ...".
std::string invalid_block_bytes_message(std::size_t bytes);

/// Calls f(std::integral_constant<std::size_t, B>{}) with B == bytes and returns what it returns
/// (the same type for every B); throws ConfigError when bytes is not in kBlockSizes.
template <std::size_t I = 0, class F>
decltype(auto) with_block_size(std::size_t bytes, F&& f) {
  constexpr std::size_t kB = kBlockSizes[I];
  if constexpr (I + 1 == kBlockSizes.size()) {
    if (bytes != kB) throw ConfigError(invalid_block_bytes_message(bytes));
    return std::forward<F>(f)(std::integral_constant<std::size_t, kB>{});
  } else {
    if (bytes == kB) return std::forward<F>(f)(std::integral_constant<std::size_t, kB>{});
    return with_block_size<I + 1>(bytes, std::forward<F>(f));
  }
}

}  // namespace swcc
