// The hit checks with the run-time block size (slow paths; Dsm<B> inlines its own): a read or
// write that the entry already allows is served in place.
#include <cstring>

#include "swcc/detail/engine.hpp"

namespace swcc {

bool Engine::try_read(int home, std::uint64_t off, void* dst, std::size_t len) {
  const std::uint64_t blk = off >> block_shift_;
  if (!cached()) {
    if (home != rank_) return false;
    if (len) std::memcpy(dst, segment_ + off, len);
    return true;
  }
  Entry* e = dir_.row(home).find(blk);
  if (home == rank_) {
    HomeEntry he = e ? HomeEntry{e->state, dir_.sharers(*e), e->owner} : HomeEntry{};
    if (home_access(rank_, e != nullptr, he, swcc::Access::kRead) != LocalAction::kHit)
      return false;
    if (len) std::memcpy(dst, segment_ + off, len);
    return true;
  }
  if (!e || cache_access(e->state, swcc::Access::kRead) != LocalAction::kHit) return false;
  if (len) std::memcpy(dst, e->data + (off & (block_bytes_ - 1)), len);
  return true;
}

bool Engine::try_write(int home, std::uint64_t off, const void* src, std::size_t len) {
  const std::uint64_t blk = off >> block_shift_;
  if (!cached()) {
    if (home != rank_) return false;
    if (len) std::memcpy(segment_ + off, src, len);
    return true;
  }
  Entry* e = dir_.row(home).find(blk);
  if (home == rank_) {
    HomeEntry he = e ? HomeEntry{e->state, dir_.sharers(*e), e->owner} : HomeEntry{};
    if (home_access(rank_, e != nullptr, he, swcc::Access::kWrite) != LocalAction::kHit)
      return false;
    if (e && e->state == State::kShared) {  // no sharers left: silently take it
      e->state = State::kModified;
      e->owner = rank_;
    }
    if (len) std::memcpy(segment_ + off, src, len);
    return true;
  }
  if (!e || cache_access(e->state, swcc::Access::kWrite) != LocalAction::kHit) return false;
  if (len) std::memcpy(e->data + (off & (block_bytes_ - 1)), src, len);
  return true;
}

}  // namespace swcc
