// The views of swcc/swcc.hpp (Dsm<B>::read_view, write_view; BlockView): one coherence check
// for a block, then plain loads and stores over the elements it spans. Their rules are in
// swcc.hpp's "views" section. Included at the end of swcc/swcc.hpp.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <utility>

#include "swcc/detail/dsm_impl.hpp"
#include "swcc/detail/engine.hpp"
#include "swcc/swcc.hpp"

namespace swcc {

namespace detail {
/// Writes an sc write view's private copy back to its home: puts of kScBulkBytes at most,
/// complete at the next sync.
inline void sc_write_back(Engine& e, int home, std::uint64_t off, const std::uint8_t* src,
                          std::size_t len) {
  for (std::size_t done = 0; done < len;) {
    const std::size_t piece = std::min(len - done, kScBulkBytes);
    e.put_miss(home, off + done, src + done, piece);
    done += piece;
  }
  e.flush();
}
}  // namespace detail

// ---- BlockView

template <class T, bool W>
inline BlockView<T, W>& BlockView<T, W>::operator=(BlockView&& o) noexcept {
  if (this != &o) {
    this->~BlockView();  // writes back an sc copy
    new (this) BlockView(std::move(o));
  }
  return *this;
}

template <class T, bool W>
inline BlockView<T, W>::~BlockView() {
  if constexpr (W)
    if (copy_ && write_back_)
      detail::sc_write_back(*write_back_, home_, off_, copy_.get(), size_ * sizeof(T));
}

template <class T, bool W>
inline auto BlockView<T, W>::operator[](std::size_t j) const -> element_type& {
#ifndef NDEBUG
  check();
#endif
  return data_[j];
}

template <class T, bool W>
inline auto BlockView<T, W>::span() const -> std::span<element_type> {
  check();
  return {data_, size_};
}

// Out of line and cold, so that check() is one compare inlined wherever a span is taken.
template <class T, bool W>
void BlockView<T, W>::refuse_stale() const {
  throw Error("swcc: a " + std::string(W ? "write" : "read") + " view of rank " +
              std::to_string(home_) + "'s offset " + std::to_string(off_) +
              " used after this rank served protocol messages (a view ends at the next call "
              "that may poll: take it again)");
}

// ---- Dsm<B>'s views

template <std::size_t B>
template <class T>
inline ReadView<T> Dsm<B>::read_view(global_ptr<T> p, std::size_t n) {
  return make_view<T, false>(p, n, [&] { e_.read_miss(p.rank, p.offset, nullptr, 0); });
}

template <std::size_t B>
template <class T>
inline WriteView<T> Dsm<B>::write_view(global_ptr<T> p, std::size_t n) {
  return make_view<T, true>(p, n, [] {});
}

template <std::size_t B>
template <class T>
inline ReadView<T> Dsm<B>::read_view(const InterleavedArray<T, B>& a, std::size_t i) {
  if (i >= a.count()) return {};
  const std::size_t k = a.block_of(i), first = k * a.kPerBlock;
  ReadView<T> v = make_view<T, false>(a.block(k), std::min(a.kPerBlock, a.count() - first),
                                      [&] { view_read_miss(a, k); });
  v.first_ = first;
  return v;
}

template <std::size_t B>
template <class T>
inline WriteView<T> Dsm<B>::write_view(const InterleavedArray<T, B>& a, std::size_t i) {
  if (i >= a.count()) return {};
  const std::size_t k = a.block_of(i), first = k * a.kPerBlock;
  WriteView<T> v = make_view<T, true>(a.block(k), std::min(a.kPerBlock, a.count() - first), [] {});
  v.first_ = first;
  return v;
}

// The view of [p, p + n) clipped to p's block. Cached: the block readable (writable) here, by
// a miss when it is not, retried while the serving of other messages after the reply took it
// away again; then no message is served until the caller's next polling call, so the pointer
// stays good. sc: this rank's own memory in place, another rank's block as a private copy.
template <std::size_t B>
template <class T, bool W, class ReadMiss>
inline BlockView<T, W> Dsm<B>::make_view(global_ptr<T> p, std::size_t n, ReadMiss&& read_miss) {
  static_assert(std::is_trivially_copyable_v<T>);
  const std::uint64_t in = p.offset & (B - 1);
  if (B % sizeof(T) != 0 || in % sizeof(T) != 0)
    throw AccessError("swcc: a view of " + std::to_string(sizeof(T)) + "-byte elements at rank " +
                      std::to_string(p.rank) + "'s offset " + std::to_string(p.offset) +
                      " would cross a " + std::to_string(B) + "-byte block");
  BlockView<T, W> v;
  v.size_ = std::min<std::size_t>(n, (B - in) / sizeof(T));
  const std::size_t bytes = std::max<std::size_t>(v.size_, 1) * sizeof(T);
  if (__builtin_expect(!pointer_ok(p.rank, p.offset, bytes), 0))
    refuse_pointer(W ? "write view" : "read view", p.rank, p.offset, bytes);
  v.home_ = p.rank;
  v.off_ = p.offset;
  v.gen_ = &e_.deliveries();
  if (v.size_ == 0) {
    v.gen0_ = e_.deliveries();
    return v;
  }
  std::uint8_t* base = nullptr;
  if (!cached_ && p.rank != me_) {
    v.copy_ = std::make_unique_for_overwrite<std::uint8_t[]>(v.size_ * sizeof(T));
    read_bulk(reinterpret_cast<T*>(v.copy_.get()), p, v.size_);
    if constexpr (W) v.write_back_ = &e_;
    base = v.copy_.get();
  } else if (!cached_) {
    base = seg_ + p.offset;  // sc keeps no copies: the home's memory is current
    ++e_.hit_counter();
  } else if constexpr (W) {
    if ((base = writable(p.rank, p.offset)))
      ++e_.hit_counter();
    else
      while (!(base = writable(p.rank, p.offset))) e_.write_miss(p.rank, p.offset, nullptr, 0);
  } else {
    if ((base = readable(p.rank, p.offset)))
      ++e_.hit_counter();
    else
      while (!(base = readable(p.rank, p.offset))) read_miss();
  }
  v.gen0_ = e_.deliveries();
  v.data_ = reinterpret_cast<typename BlockView<T, W>::element_type*>(base);
  return v;
}

// A read view's miss on block k of an interleaved array: the next Config::prefetch blocks go
// with it (as with read(array, i)).
template <std::size_t B>
template <class T>
[[gnu::noinline]] void Dsm<B>::view_read_miss(const InterleavedArray<T, B>& a, std::size_t k) {
  BlockAddr next[kMaxPrefetch];
  std::size_t n = 0;
  for (std::size_t j = k + 1; j <= k + prefetch_ && j < a.blocks(); ++j) {
    const global_ptr<T> b = a.block(j);
    next[n++] = {b.rank, b.offset};
  }
  const global_ptr<T> p = a.block(k);
  e_.read_miss(p.rank, p.offset, nullptr, 0, {next, n});
}

}  // namespace swcc
