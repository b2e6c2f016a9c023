// Dsm<B>'s inline hit paths (swcc/swcc.hpp): a run of accesses to one block compares the home and
// the offset into the block with the engine's hit memo and copies; a new block is checked
// against the segments (swcc/detail/bounds.hpp) and probes the directory once, out of line, and
// is remembered. swcc/README.md "Hit path". The decisions of the probe on one entry are the
// functions below, which tests/swcc/hit_path_agreement_test.cpp holds against the protocol's
// home_access and cache_access.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "swcc/detail/bounds.hpp"
#include "swcc/detail/engine.hpp"
#include "swcc/swcc.hpp"

namespace swcc {

// What the probe decides from the directory entry of a block (null: none): whether the home `me`
// may read (write) it in its own memory, whether a non-home node may read (write) its cached
// copy. The home leaves a Shared entry without sharers to the engine's slow path, which takes it
// silently (Engine::try_write): the protocol's home_access allows that write, the inline path
// does not hit it.
inline bool home_hit_read(const Entry* en, int me) {
  return !en || en->state == State::kShared || (en->state == State::kModified && en->owner == me);
}
inline bool home_hit_write(const Entry* en, int me) {
  return !en || (en->state == State::kModified && en->owner == me);
}
inline bool cache_hit_read(const Entry* en) {
  return en && (en->state == State::kShared || en->state == State::kModified);
}
inline bool cache_hit_write(const Entry* en) { return en && en->state == State::kModified; }

// Whether memo m covers [off, off + len) of `home`'s segment: the same home, and the bytes
// inside the memo's block. One subtraction and two compares (len is a constant of the caller's
// element, so `len <= B` folds away); an offset below the block wraps round to a large
// difference.
template <std::size_t B>
inline bool memo_covers(const Engine::HitMemo& m, int home, std::uint64_t off, std::size_t len) {
  return len <= B && (static_cast<std::uint32_t>(home) == m.home) & (off - m.first <= B - len);
}

template <std::size_t B>
inline bool Dsm<B>::hit_read(int home, std::uint64_t off, void* dst, std::size_t len) {
  const Engine::HitMemo& m = e_.read_memo();
  const std::uint8_t* src;
  if (__builtin_expect(memo_covers<B>(m, home, off, len), 1))
    src = m.base + (off - m.first);
  else if (!(src = remember<false>(home, off, len)))
    return false;
  std::memcpy(dst, src, len);
  ++e_.hit_counter();
  return true;
}

template <std::size_t B>
inline bool Dsm<B>::hit_write(int home, std::uint64_t off, const void* src, std::size_t len) {
  const Engine::HitMemo& m = e_.write_memo();
  std::uint8_t* dst;
  if (__builtin_expect(memo_covers<B>(m, home, off, len), 1))
    dst = m.base + (off - m.first);
  else if (!(dst = remember<true>(home, off, len)))
    return false;
  std::int64_t& hits = e_.hit_counter();
  ++hits;  // before the copy, which may alias anything
  std::memcpy(dst, src, len);
  return true;
}

// Checks an access the memo does not cover (AccessError for a rank that does not exist or bytes
// outside its segment) and probes the directory for its block; remembers the block when it may
// be read (W: written), and returns where its bytes are (null: a request is needed). Out of
// line, so that the memo check stays a few instructions. The home's own bytes with no entry in
// its row (nobody else has touched its memory) are current in any range, one that crosses a
// block included; otherwise an access that crosses a block is left to the caller's slow path
// (in sc mode the home's own memory holds any range of it). A writable block is readable, so a
// write fills the read memo too.
template <std::size_t B>
template <bool W>
[[gnu::noinline]] std::uint8_t* Dsm<B>::remember(int home, std::uint64_t off, std::size_t len) {
  if (home == me_) {
    if (__builtin_expect(!inside_segment(off, len, segment_bytes_), 0))
      refuse_pointer(W ? "write" : "read", home, off, len);
    if (cached_ && crosses_block(off, len, B) && !e_.dir().row(home).empty()) return nullptr;
  } else {
    if (__builtin_expect(static_cast<unsigned>(home) >= static_cast<unsigned>(ranks_), 0))
      refuse_pointer(W ? "write" : "read", home, off, len);
    if (cached_ && crosses_block(off, len, B)) return nullptr;
  }
  std::uint8_t* p = W ? writable(home, off) : readable(home, off);
  if (!p) return nullptr;
  const Engine::HitMemo m{static_cast<std::uint32_t>(home), off & ~std::uint64_t{B - 1},
                          p - (off & (B - 1))};
  if constexpr (W) e_.write_memo() = m;
  e_.read_memo() = m;
  return p;
}

// Another rank's block needs only the rank checked here: its directory row holds entries for
// checked blocks only (every entry is made by a miss, a prefetch or the home's message, all
// checked), so an offset outside the segment finds none and goes to the miss path, which
// throws. The home's own memory is read without an entry: its bytes are checked here.
template <std::size_t B>
inline bool Dsm<B>::pointer_ok(int home, std::uint64_t off, std::size_t len) const {
  return static_cast<unsigned>(home) < static_cast<unsigned>(ranks_) &&
         (home != me_ || inside_segment(off, len, segment_bytes_));
}

// Out of line and never returning, so that the probe keeps no registers for it.
template <std::size_t B>
[[noreturn, gnu::cold, gnu::noinline]] void Dsm<B>::refuse_pointer(const char* what, int home,
                                                                   std::uint64_t off,
                                                                   std::size_t len) const {
  e_.check_pointer(what, home, off, len);  // throws: pointer_ok is its quick form
  throw AccessError("swcc: refused pointer passed the check");
}

// Where this rank may read (write) the byte at `off` of `home`'s segment: home memory or the
// cached copy; null when it needs a request.
template <std::size_t B>
inline std::uint8_t* Dsm<B>::readable(int home, std::uint64_t off) {
  if (home == me_) {
    DirRow& row = e_.dir().row(home);
    if (row.empty()) return seg_ + off;  // home fast path: nobody else touched it
    return home_hit_read(row.find(off >> kShift), me_) ? seg_ + off : nullptr;
  }
  if (!cached_) return nullptr;
  const Entry* en = e_.dir().row(home).find(off >> kShift);
  return cache_hit_read(en) ? en->data + (off & (B - 1)) : nullptr;
}

template <std::size_t B>
inline std::uint8_t* Dsm<B>::writable(int home, std::uint64_t off) {
  if (home == me_) {
    DirRow& row = e_.dir().row(home);
    if (row.empty()) return seg_ + off;
    // Shared without sharers is taken by the engine's slow path
    return home_hit_write(row.find(off >> kShift), me_) ? seg_ + off : nullptr;
  }
  if (!cached_) return nullptr;
  Entry* en = e_.dir().row(home).find(off >> kShift);
  return cache_hit_write(en) ? en->data + (off & (B - 1)) : nullptr;
}

}  // namespace swcc
