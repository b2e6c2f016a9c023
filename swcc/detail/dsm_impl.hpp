// The bodies of swcc/swcc.hpp's templates: Dsm<B>'s accesses, bulk transfers and
// synchronisation on top of its hit paths (hit_path.hpp) and the engine's slow paths
// (engine.hpp), and with_dsm's one dispatch. Included at the end of swcc/swcc.hpp.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include "swcc/detail/bounds.hpp"
#include "swcc/detail/engine.hpp"
#include "swcc/detail/hit_path.hpp"
#include "swcc/detail/interleaved_array.hpp"
#include "swcc/swcc.hpp"

namespace swcc {

template <std::size_t B>
inline Dsm<B>::Dsm(Engine& engine)
    : e_(engine),
      me_(engine.rank()),
      ranks_(engine.size()),
      segment_bytes_(engine.segment_bytes()),
      seg_(engine.segment()),
      cached_(engine.cached()),
      prefetch_(engine.config().prefetch) {}

template <std::size_t B>
inline int Dsm<B>::size() const {
  return e_.size();
}

template <std::size_t B>
template <class T>
inline SpreadArray<T> Dsm<B>::alloc(std::size_t count) {
  return {e_.alloc(count * sizeof(T)), count};
}

template <std::size_t B>
template <class T>
inline InterleavedArray<T, B> Dsm<B>::alloc_interleaved(std::size_t count) {
  if constexpr (sizeof(T) > B)
    throw ConfigError("swcc: an interleaved array of " + std::to_string(sizeof(T)) +
                      "-byte elements needs blocks of at least that size (block size " +
                      std::to_string(B) + ")");
  return {e_.alloc(InterleavedArray<T, B>::part_bytes(count, size())), count, size()};
}

template <std::size_t B>
template <class T>
inline T* Dsm<B>::local(global_ptr<T> p) {
  check_local_pointer("local", me_, size(), p.rank, p.offset, sizeof(T), e_.segment_bytes());
  return reinterpret_cast<T*>(seg_ + p.offset);
}

template <std::size_t B>
template <class T>
inline const T* Dsm<B>::local_read(global_ptr<T> p, std::size_t n) {
  static_assert(std::is_trivially_copyable_v<T>);
  const std::uint64_t bytes =
      n <= std::numeric_limits<std::uint64_t>::max() / sizeof(T) ? n * sizeof(T) : ~0ull;
  check_local_pointer("local_read", me_, size(), p.rank, p.offset, bytes, e_.segment_bytes());
  if (cached_ && !e_.dir().row(me_).empty()) {
    const std::uint64_t end = p.offset + n * sizeof(T);
    for (std::uint64_t off = p.offset & ~std::uint64_t{B - 1}; off < end; off += B)
      if (!readable(me_, off)) {
        std::uint8_t byte;
        e_.read_miss(me_, off, &byte, 1);
      }
  }
  return reinterpret_cast<const T*>(seg_ + p.offset);
}

template <std::size_t B>
template <class T>
inline T Dsm<B>::read(global_ptr<T> p) {
  static_assert(std::is_trivially_copyable_v<T>);
  T v;
  if (__builtin_expect(!cached_, 0) && p.rank == me_) return sc_local<T>(p);
  if constexpr (sizeof(T) > B)
    read_slow(p, &v);
  else if (!hit_read(p.rank, p.offset, &v, sizeof(T)))
    read_slow(p, &v);
  return v;
}

template <std::size_t B>
template <class T>
inline void Dsm<B>::write(global_ptr<T> p, const T& v) {
  static_assert(std::is_trivially_copyable_v<T>);
  if (__builtin_expect(!cached_, 0) && p.rank == me_) {
    (void)sc_local<T>(p, &v);
    return;
  }
  if constexpr (sizeof(T) > B)
    write_slow(p, v);
  else if (!hit_write(p.rank, p.offset, &v, sizeof(T)))
    write_slow(p, v);
}

// The misses of read(p) and write(p, v): an element across blocks (cached) goes as a bulk
// transfer of its blocks ("Rules" in swcc/swcc.hpp), any other to the engine.
template <std::size_t B>
template <class T>
[[gnu::noinline]] void Dsm<B>::read_slow(global_ptr<T> p, T* v) {
  if (cached_ && crosses_block(p.offset, sizeof(T), B)) return read_bulk(v, p, 1);
  e_.read_miss(p.rank, p.offset, v, sizeof(T));
}

template <std::size_t B>
template <class T>
[[gnu::noinline]] void Dsm<B>::write_slow(global_ptr<T> p, const T& v) {
  if (cached_ && crosses_block(p.offset, sizeof(T), B)) return write_bulk(p, &v, 1);
  e_.write_miss(p.rank, p.offset, &v, sizeof(T));
}

// AccessError unless n elements at p lie in a segment (the bulk transfers, once per call).
template <std::size_t B>
template <class T>
inline void Dsm<B>::check_range(const char* what, global_ptr<T> p, std::size_t n) const {
  const std::uint64_t bytes =
      n <= std::numeric_limits<std::uint64_t>::max() / sizeof(T) ? n * sizeof(T) : ~0ull;
  e_.check_pointer(what, p.rank, p.offset, bytes);
}

template <std::size_t B>
template <class T>
inline T Dsm<B>::read(const InterleavedArray<T, B>& a, std::size_t i) {
  const global_ptr<T> p = a[i];
  T v;
  if (!hit_read(p.rank, p.offset, &v, sizeof(T))) read_miss_prefetching(a, i, &v);
  return v;
}

template <std::size_t B>
template <class T>
inline void Dsm<B>::write(const InterleavedArray<T, B>& a, std::size_t i, const T& v) {
  write(a[i], v);
}

template <std::size_t B>
template <class T>
inline bool Dsm<B>::prefetch(global_ptr<T> p) {
  check_range("prefetch", p, 1);
  const bool sent = e_.prefetch(p.rank, p.offset);
  e_.flush();
  return sent;
}

template <std::size_t B>
template <class T>
inline void Dsm<B>::get(T* dst, global_ptr<T> p, std::size_t n) {
  check_range("get", p, n);
  split(p, n, [&](std::uint64_t off, std::size_t done, std::size_t len) {
    auto* d = reinterpret_cast<std::uint8_t*>(dst) + done;
    if (!hit_read(p.rank, off, d, len)) e_.get_miss(p.rank, off, d, len);
  });
  e_.flush();
}

template <std::size_t B>
template <class T>
inline void Dsm<B>::put(global_ptr<T> p, const T* src, std::size_t n) {
  put_blocks(p, src, n, false);
}

template <std::size_t B>
template <class T>
inline void Dsm<B>::store(global_ptr<T> p, const T* src, std::size_t n) {
  check_range("store", p, n);
  split(p, n, [&](std::uint64_t off, std::size_t done, std::size_t len) {
    e_.store(p.rank, off, reinterpret_cast<const std::uint8_t*>(src) + done, len);
  });
  e_.flush();
}

template <std::size_t B>
template <class T>
inline void Dsm<B>::read_bulk(T* dst, global_ptr<T> p, std::size_t n) {
  get(dst, p, n);
  sync();
}

template <std::size_t B>
template <class T>
inline void Dsm<B>::write_bulk(global_ptr<T> p, const T* src, std::size_t n) {
  put_blocks(p, src, n, true);
  sync();
}

template <std::size_t B>
inline void Dsm<B>::sync() {
  e_.sync();
}
template <std::size_t B>
inline void Dsm<B>::barrier() {
  e_.barrier();
}
template <std::size_t B>
inline void Dsm<B>::lock(int id) {
  e_.lock(id);
}
template <std::size_t B>
inline void Dsm<B>::unlock(int id) {
  e_.unlock(id);
}
template <std::size_t B>
inline void Dsm<B>::poll() {
  e_.poll();
}
template <std::size_t B>
inline Stats Dsm<B>::stats() const {
  return e_.stats();
}

// sc mode's access to this rank's own memory: a plain load (store) of the home's memory, no
// directory and no hit memo, as Split-C's sc mode accesses local memory (nothing is cached in
// sc mode, so the home's memory is the only copy). Counted as a hit.
template <std::size_t B>
template <class T>
inline T Dsm<B>::sc_local(global_ptr<T> p, const T* store) {
  if (__builtin_expect(!pointer_ok(p.rank, p.offset, sizeof(T)), 0))
    refuse_pointer(store ? "write" : "read", p.rank, p.offset, sizeof(T));
  ++e_.hit_counter();
  if (store) {
    std::memcpy(seg_ + p.offset, store, sizeof(T));
    return *store;
  }
  T v;
  std::memcpy(&v, seg_ + p.offset, sizeof(T));
  return v;
}

// put() and write_bulk(): each block's part written now when this rank may, else a write
// request (the source copied, or read in place when `borrow`); then one flush.
template <std::size_t B>
template <class T>
inline void Dsm<B>::put_blocks(global_ptr<T> p, const T* src, std::size_t n, bool borrow) {
  check_range("put", p, n);
  split(p, n, [&](std::uint64_t off, std::size_t done, std::size_t len) {
    const auto* s = reinterpret_cast<const std::uint8_t*>(src) + done;
    if (!hit_write(p.rank, off, s, len)) e_.put_miss(p.rank, off, s, len, borrow);
  });
  e_.flush();
}

// The miss of read(array, i): the next Config::prefetch blocks of the array go with it.
template <std::size_t B>
template <class T>
[[gnu::noinline]] void Dsm<B>::read_miss_prefetching(const InterleavedArray<T, B>& a, std::size_t i,
                                                     T* v) {
  const global_ptr<T> p = a[i];
  BlockAddr next[kMaxPrefetch];
  std::size_t n = 0;
  const std::size_t k = a.block_of(i), blocks = a.blocks();
  for (std::size_t j = k + 1; j <= k + prefetch_ && j < blocks; ++j) {
    const global_ptr<T> b = a.block(j);
    next[n++] = {b.rank, b.offset};
  }
  e_.read_miss(p.rank, p.offset, v, sizeof(T), {next, n});
}

// Calls f(offset, bytes done, bytes) for each piece of [p, p+n): cached, each block's part;
// sc, pieces of kScBulkBytes from the start (sc bypasses the protocol: no block boundaries).
template <std::size_t B>
template <class T, class F>
inline void Dsm<B>::split(global_ptr<T> p, std::size_t n, F&& f) {
  std::uint64_t off = p.offset;
  std::size_t left = n * sizeof(T), done = 0;
  while (left > 0) {
    const std::size_t len = cached_ ? std::min<std::size_t>(left, B - (off & (B - 1)))
                                    : std::min<std::size_t>(left, kScBulkBytes);
    f(off, done, len);
    off += len;
    done += len;
    left -= len;
  }
}

template <class F>
decltype(auto) dispatch_block_size(Engine& engine, F&& f) {
  return with_block_size(engine.block_bytes(), [&](auto b) -> decltype(auto) {
    Dsm<decltype(b)::value> d(engine);
    return f(d);
  });
}

template <class F>
decltype(auto) with_dsm(MPI_Comm comm, const Config& config, F&& f) {
  Engine engine(comm, config);
  return dispatch_block_size(engine, std::forward<F>(f));
}

}  // namespace swcc
