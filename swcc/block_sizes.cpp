// The block-size table as text, for messages and help.
#include "swcc/block_sizes.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace swcc {

std::string block_sizes_text(const char* separator) {
  return fmt::format("{}", fmt::join(kBlockSizes, separator));
}

std::string invalid_block_bytes_message(std::size_t bytes) {
  return fmt::format("swcc: block size {} not one of {}", bytes, block_sizes_text());
}

}  // namespace swcc
