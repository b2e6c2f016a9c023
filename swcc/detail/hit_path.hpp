// Dsm<B>'s inline hit paths (swcc/swcc.hpp): a run of accesses to one block compares one key (the
// engine's hit memo) and copies; a new block probes the directory once, out of line, and is
// remembered. swcc/README.md "Hit path".
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "swcc/detail/engine.hpp"
#include "swcc/swcc.hpp"

namespace swcc {

template <std::size_t B>
inline bool Dsm<B>::hit_read(int home, std::uint64_t off, void* dst, std::size_t len) {
  const Engine::HitMemo& m = e_.read_memo();
  if (__builtin_expect(Engine::key(home, off >> kShift) != m.key, 0) && !remember_read(home, off))
    return false;
  std::memcpy(dst, m.base + (off & (B - 1)), len);
  ++e_.hit_counter();
  return true;
}

template <std::size_t B>
inline bool Dsm<B>::hit_write(int home, std::uint64_t off, const void* src, std::size_t len) {
  const Engine::HitMemo& m = e_.write_memo();
  if (__builtin_expect(Engine::key(home, off >> kShift) != m.key, 0) && !remember_write(home, off))
    return false;
  std::int64_t& hits = e_.hit_counter();
  std::uint8_t* dst = m.base + (off & (B - 1));
  ++hits;  // before the copy, which may alias anything
  std::memcpy(dst, src, len);
  return true;
}

// Probes the directory for a block the memo does not hold; remembers it when it may be read
// (written). Out of line, so that the memo check stays a few instructions.
template <std::size_t B>
[[gnu::noinline]] bool Dsm<B>::remember_read(int home, std::uint64_t off) {
  std::uint8_t* p = readable(home, off);
  if (!p) return false;
  e_.read_memo() = {Engine::key(home, off >> kShift), p - (off & (B - 1))};
  return true;
}

template <std::size_t B>
[[gnu::noinline]] bool Dsm<B>::remember_write(int home, std::uint64_t off) {
  std::uint8_t* p = writable(home, off);
  if (!p) return false;
  const Engine::HitMemo m{Engine::key(home, off >> kShift), p - (off & (B - 1))};
  e_.write_memo() = m;
  e_.read_memo() = m;  // writable is readable
  return true;
}

// Where this rank may read (write) the byte at `off` of `home`'s segment: home memory or the
// cached copy; null when it needs a request.
template <std::size_t B>
inline std::uint8_t* Dsm<B>::readable(int home, std::uint64_t off) {
  if (home == me_) {
    DirRow& row = e_.dir().row(home);
    if (row.empty()) return seg_ + off;  // home fast path: nobody else touched it
    const Entry* en = row.find(off >> kShift);
    if (!en || en->state == State::kShared || (en->state == State::kModified && en->owner == me_))
      return seg_ + off;
    return nullptr;
  }
  if (!cached_) return nullptr;
  const Entry* en = e_.dir().row(home).find(off >> kShift);
  if (en && (en->state == State::kShared || en->state == State::kModified))
    return en->data + (off & (B - 1));
  return nullptr;
}

template <std::size_t B>
inline std::uint8_t* Dsm<B>::writable(int home, std::uint64_t off) {
  if (home == me_) {
    DirRow& row = e_.dir().row(home);
    if (row.empty()) return seg_ + off;
    Entry* en = row.find(off >> kShift);
    if (!en || (en->state == State::kModified && en->owner == me_)) return seg_ + off;
    return nullptr;  // Shared without sharers is taken by the engine's slow path
  }
  if (!cached_) return nullptr;
  Entry* en = e_.dir().row(home).find(off >> kShift);
  if (en && en->state == State::kModified) return en->data + (off & (B - 1));
  return nullptr;
}

}  // namespace swcc
