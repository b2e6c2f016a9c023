// The pointer and request checks of swcc/detail/bounds.hpp.
#include "swcc/detail/bounds.hpp"

#include <fmt/format.h>

#include "swcc/detail/protocol.hpp"
#include "swcc/errors.hpp"

namespace swcc {

void check_pointer(const char* what, int caller, int ranks, int rank, std::uint64_t off,
                   std::uint64_t bytes, std::uint64_t segment) {
  if (rank < 0 || rank >= ranks)
    throw AccessError(
        fmt::format("swcc rank {}: {} of {} bytes at ({}, {}): no rank {} (ranks 0..{})", caller,
                    what, bytes, rank, off, rank, ranks - 1));
  if (!inside_segment(off, bytes, segment))
    throw AccessError(
        fmt::format("swcc rank {}: {} of {} bytes at ({}, {}) is outside rank {}'s segment of {} "
                    "bytes",
                    caller, what, bytes, rank, off, rank, segment));
}

void check_local_pointer(const char* what, int caller, int ranks, int rank, std::uint64_t off,
                         std::uint64_t bytes, std::uint64_t segment) {
  if (rank != caller)
    throw AccessError(fmt::format(
        "swcc rank {}: {} of {} bytes at ({}, {}): not this rank's memory (use read or get)",
        caller, what, bytes, rank, off));
  check_pointer(what, caller, ranks, rank, off, bytes, segment);
}

void check_one_block(const char* what, int caller, int rank, std::uint64_t off, std::uint64_t bytes,
                     std::uint64_t block) {
  if (bytes > 0 && crosses_block(off, bytes, block))
    throw AccessError(fmt::format(
        "swcc rank {}: {} of {} bytes at ({}, {}) crosses a {}-byte block (use get or put)", caller,
        what, bytes, rank, off, block));
}

void check_home_block(const char* what, int home, int src, std::uint64_t block,
                      std::uint64_t blocks) {
  if (block >= blocks)
    throw ProtocolError(
        fmt::format("swcc rank {}: {} from rank {} names block {}, beyond the segment's {} blocks",
                    home, what, src, block, blocks));
}

void check_home_request(const char* what, int home, int src, std::uint64_t off, std::uint64_t bytes,
                        std::uint64_t segment) {
  if (!inside_segment(off, bytes, segment))
    throw ProtocolError(fmt::format(
        "swcc rank {}: {} from rank {} names {} bytes at offset {}, outside the segment of {} "
        "bytes",
        home, what, src, bytes, off, segment));
}

}  // namespace swcc
