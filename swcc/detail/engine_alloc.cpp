// The collective allocator of the global segment: every rank reserves the same offset.
#include <fmt/format.h>

#include <algorithm>

#include "swcc/detail/engine.hpp"
#include "swcc/errors.hpp"

namespace swcc {

std::uint64_t Engine::alloc(std::size_t bytes) {
  std::int64_t v[2] = {static_cast<std::int64_t>(bytes), -static_cast<std::int64_t>(bytes)};
  MPI_Request req;  // non-blocking, so that the wait serves messages and sees on_wait
  MPI_Iallreduce(MPI_IN_PLACE, v, 2, MPI_INT64_T, MPI_MAX, transport_.comm(), &req);
  wait_until([&] {
    int flag = 0;
    MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    return flag != 0;
  });
  if (v[0] != -v[1]) throw Error("swcc: alloc called with different sizes on ranks");
  const std::uint64_t align = std::max<std::size_t>(block_bytes_, 64);
  std::uint64_t off = (next_offset_ + align - 1) / align * align;
  if (off + bytes > segment_bytes_)
    throw Error(
        fmt::format("swcc: segment of {} bytes exhausted (need {} more)", segment_bytes_, bytes));
  next_offset_ = off + bytes;
  return off;
}

void Engine::release_to(std::uint64_t offset) {
  barrier();
  next_offset_ = std::min<std::uint64_t>(next_offset_, offset);
}

}  // namespace swcc
