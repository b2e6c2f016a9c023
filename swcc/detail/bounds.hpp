// The checks of a global pointer against the ranks and their segments, and of a home's request
// against its segment: pure functions (no MPI), called by Dsm<B> and the engine on every path
// that is not a hit (a hit is of a block a miss path checked already; swcc/detail/hit_path.hpp).
#pragma once

#include <cstddef>
#include <cstdint>

namespace swcc {

/// Whether [off, off + bytes) lies inside a segment of `segment` bytes (no overflow).
constexpr bool inside_segment(std::uint64_t off, std::uint64_t bytes, std::uint64_t segment) {
  return bytes <= segment && off <= segment - bytes;
}

/// Whether [off, off + bytes) crosses a block boundary of blocks of `block` bytes (bytes >= 1).
constexpr bool crosses_block(std::uint64_t off, std::uint64_t bytes, std::uint64_t block) {
  return (off & (block - 1)) + bytes > block;
}

/// Throws AccessError when rank `rank` is not one of `ranks` or [off, off + bytes) is outside
/// its segment of `segment` bytes. `what` names the access ("read", "get", ...), `caller` the
/// rank that makes it; the text names the pointer as (rank, offset), the bytes, the segment.
void check_pointer(const char* what, int caller, int ranks, int rank, std::uint64_t off,
                   std::uint64_t bytes, std::uint64_t segment);

/// Throws AccessError unless `rank` == `caller` (local() and local_read() of another rank's
/// memory), then checks the pointer as check_pointer does.
void check_local_pointer(const char* what, int caller, int ranks, int rank, std::uint64_t off,
                         std::uint64_t bytes, std::uint64_t segment);

/// Throws AccessError when one access of `bytes` at (rank, off) crosses a block of `block`
/// bytes (hit_read, hit_write and the engine's single misses serve one block).
void check_one_block(const char* what, int caller, int rank, std::uint64_t off, std::uint64_t bytes,
                     std::uint64_t block);

/// Throws ProtocolError when a message that reached home `home` names block `block` of a
/// segment of `blocks` blocks or beyond: a corrupt message, never served.
void check_home_block(const char* what, int home, int src, std::uint64_t block,
                      std::uint64_t blocks);

/// Throws ProtocolError when a request that reached home `home` names bytes [off, off + bytes)
/// outside its segment: a corrupt message, never copied.
void check_home_request(const char* what, int home, int src, std::uint64_t off, std::uint64_t bytes,
                        std::uint64_t segment);

}  // namespace swcc
