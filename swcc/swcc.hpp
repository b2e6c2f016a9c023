// swcc: a software cache-coherent distributed shared memory over MPI (the SWCC-Split-C design).
//
// Every rank owns a global segment; a global address is (rank, byte offset in that rank's
// segment). Memory is coherent in blocks of B bytes (kBlockSizes: 8, 64, 256, 1024 or 4096;
// default kDefaultBlockBytes = 64) kept by an MSI invalidation protocol serialised at each block's
// home. B is chosen at run time once, through with_dsm() (with_block_size() is the one dispatch),
// which instantiates the access paths for that compiled B, with no run-time block-size
// arithmetic: a hit on the block the previous hit touched compares one key and copies; a hit on
// another block probes the directory once (out of line) and is remembered.
//
// This header is the library's front door (target swcc::dsm, which needs MPI and fmt only):
//
//   swcc::Config cfg;                           // block_bytes, uncached (sc mode), segment, faults
//   swcc::with_dsm(MPI_COMM_WORLD, cfg, [&](auto& dsm) {
//     auto a = dsm.template alloc<long>(100);   // collective: 100 longs on every rank
//     dsm.write(a.on(1) + 5, 42L);               // blocking write to rank 1's element 5
//     long v = dsm.read(a.on(1) + 5);            // blocking read (cached after a miss)
//     dsm.get(&v, a.on(0), 1); dsm.sync();       // split-phase
//     dsm.barrier();                             // serves protocol messages while waiting
//   });
//
// Interleaved memory (SCI-VM's global memory, pages round robin over the ranks):
//
//   cfg.block_bytes = 4096; cfg.prefetch = 2;   // pages of 4 KiB; prefetch depth d = 2
//   swcc::with_dsm(MPI_COMM_WORLD, cfg, [&](auto& dsm) {
//     auto v = dsm.template alloc_interleaved<int>(1 << 20);  // collective; block k at rank k % P
//     swcc::global_ptr<int> p = v[12345];        // element index -> (home, offset)
//     int x = dsm.read(v, 12345);                // a miss to block k also asks for k+1..k+d
//     dsm.write(v, 7, x);                        // no prefetch on writes
//   });
//
// A prefetched block arrives as Shared without anyone waiting for it; a read finds it as a hit
// or rides on the request in flight. Nothing is asked for twice, nor for a block this rank may
// read already, nor past the array's end (Stats::prefetches counts what went out).
//
// Rules: an access of one element must not cross a block (elements are naturally aligned and
// B >= sizeof(T)); bulk get/put/store accept any range and split it into blocks (in sc mode into
// pieces of kScBulkBytes, Split-C's sc bulk messages). get/put/store complete at sync() (and at
// barrier() and unlock(), which sync first). A split-phase put's source is copied when issued;
// write_bulk reads it in place, as it returns only when the data is written.
// Only one thread per rank may use a Dsm.
//
// Messages: the transport packs the messages of a burst to one rank into one MPI message (a
// bulk get of many blocks sends its requests, and the home its replies, in packets of up to
// 32 KiB); every wait polls, and every call that sends without waiting flushes, so nothing sits
// in a buffer while its sender waits. A bulk get or put's messages for a run of blocks at one
// home travel as range messages (one request, one reply with the blocks' data, one invalidation
// and one ack per sharer; swcc/README.md "Range messages"), and a reply larger than a packet
// as its own MPI message. Stats::messages counts protocol messages (a range once), not packets.
//
// Failures: Config::on_wait is called by every wait and may throw to abandon it (comops's
// SwccComm uses it so that one participant's failure ends the others' waits at once); the
// watchdog (Config::watchdog_s, stretched by load_factor() on a loaded machine) turns a request
// that never completes into swcc::Timeout with a dump of the directory. Errors are swcc::Error
// (swcc/errors.hpp): ConfigError for a Config the library refuses, Timeout for the watchdog.
// Up to 65535 ranks: sharer sets are one inline word up to 64 ranks, a bitset beyond.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "swcc/block_sizes.hpp"
#include "swcc/detail/engine.hpp"
#include "swcc/errors.hpp"

namespace swcc {

/// A global pointer: the element at byte `offset` of rank `rank`'s global segment.
template <class T>
struct global_ptr {
  int rank = 0;
  std::uint64_t offset = 0;
  global_ptr operator+(std::ptrdiff_t i) const {
    return {rank, offset + static_cast<std::uint64_t>(i * static_cast<std::ptrdiff_t>(sizeof(T)))};
  }
  global_ptr& operator+=(std::ptrdiff_t i) { return *this = *this + i; }
  bool operator==(const global_ptr&) const = default;
};

/// The global pointer of `local`, an address inside the calling rank's segment, as seen from
/// rank `rank` (Split-C toglobal: the same offset on another rank).
template <class T>
global_ptr<T> toglobal(int rank, std::uint64_t offset) {
  return {rank, offset};
}

/// A spread array: `count` elements of T on every rank at the same offset (Split-C spread
/// allocation). on(r) is rank r's part.
template <class T>
struct SpreadArray {
  std::uint64_t offset = 0;
  std::size_t count = 0;  ///< elements per rank
  global_ptr<T> on(int rank) const { return {rank, offset}; }
};

/// An interleaved array (SCI-VM's global memory): `count` elements of T in blocks (pages) of B
/// bytes, block k homed at rank k mod P, round robin, as block k / P of that rank's part, all
/// parts at the same offset. Made by Dsm<B>::alloc_interleaved (collective). operator[] maps an
/// element index to its global pointer; Dsm<B>::read(array, i) prefetches on a miss.
template <class T, std::size_t B>
class InterleavedArray {
  static_assert(B % sizeof(T) == 0, "an element must not cross a block");

 public:
  static constexpr std::size_t kPerBlock = B / sizeof(T);  ///< elements per block
  InterleavedArray() = default;
  /// The array whose parts start at `offset` on each of `ranks` ranks (alloc_interleaved).
  InterleavedArray(std::uint64_t offset, std::size_t count, int ranks)
      : offset_(offset),
        count_(count),
        ranks_(static_cast<std::uint64_t>(ranks)),
        magic_(ranks > 1 ? ~std::uint64_t{0} / static_cast<std::uint64_t>(ranks) + 1 : 0) {}

  std::uint64_t offset() const { return offset_; }  ///< of every rank's part
  std::size_t count() const { return count_; }      ///< elements in all
  int ranks() const { return static_cast<int>(ranks_); }
  std::size_t blocks() const { return (count_ + kPerBlock - 1) / kPerBlock; }
  static std::size_t block_of(std::size_t i) { return i / kPerBlock; }
  int home_of_block(std::size_t k) const { return block(k).rank; }
  /// The first element of block k: rank k mod P, block k / P of that rank's part.
  global_ptr<T> block(std::size_t k) const {
    const std::uint64_t q = div_ranks(k);
    return {static_cast<int>(k - q * ranks_), offset_ + q * B};
  }
  global_ptr<T> operator[](std::size_t i) const {
    return block(i / kPerBlock) + static_cast<std::ptrdiff_t>(i % kPerBlock);
  }
  /// Bytes of one rank's part: ceil(blocks / P) blocks.
  static std::size_t part_bytes(std::size_t count, int ranks) {
    const std::size_t blocks = (count + kPerBlock - 1) / kPerBlock;
    return (blocks + ranks - 1) / static_cast<std::size_t>(ranks) * B;
  }

 private:
  // k / P without a division for k < 2^32 (Lemire, Kaser and Kurz, "Faster remainder by direct
  // computation", 2019: the high word of k * ceil(2^64 / P) is exact there); a division beyond.
  // Every element access maps its block, and a 64-bit division costs tens of cycles.
  std::uint64_t div_ranks(std::uint64_t k) const {
    if (ranks_ == 1) return k;
    if (k >> 32 == 0)
      return static_cast<std::uint64_t>((static_cast<unsigned __int128>(k) * magic_) >> 64);
    return k / ranks_;
  }
  std::uint64_t offset_ = 0;
  std::size_t count_ = 0;
  std::uint64_t ranks_ = 1;
  std::uint64_t magic_ = 0;  ///< ceil(2^64 / P), P > 1
};

/// The DSM with block size B compiled in. Create through with_dsm().
template <std::size_t B>
class Dsm {
  static_assert(valid_block_bytes(B), "B must be one of kBlockSizes");

 public:
  static constexpr std::size_t kBlockBytes = B;
  explicit Dsm(Engine& engine)
      : e_(engine),
        me_(engine.rank()),
        seg_(engine.segment()),
        cached_(engine.cached()),
        prefetch_(engine.config().prefetch) {}

  int rank() const { return me_; }
  int size() const { return e_.size(); }
  Engine& engine() { return e_; }

  /// Collective: `count` elements of T on every rank (same offset everywhere).
  template <class T>
  SpreadArray<T> alloc(std::size_t count) {
    return {e_.alloc(count * sizeof(T)), count};
  }
  /// Collective: `count` elements of T interleaved over all ranks in blocks of B bytes (block k
  /// homed at rank k mod P); every rank reserves ceil(blocks / P) blocks.
  template <class T>
  InterleavedArray<T, B> alloc_interleaved(std::size_t count) {
    return {e_.alloc(InterleavedArray<T, B>::part_bytes(count, size())), count, size()};
  }
  /// The calling rank's own memory of a global pointer (valid for p.rank == rank(); see the
  /// Split-C caveat: once other ranks touched the block, use read/write instead).
  template <class T>
  T* local(global_ptr<T> p) {
    return reinterpret_cast<T*>(seg_ + p.offset);
  }
  /// The calling rank's own n elements at p (p.rank == rank()) for reading through a local
  /// pointer, as a Split-C program reads its own part of a spread array: every block of the
  /// range that another rank holds Modified is fetched back first (a read miss each, as
  /// read() would), so that home memory is current. The pointer stays valid until the next
  /// barrier provided no rank writes the range before it (a data-race-free program between
  /// barriers); other ranks may read it meanwhile. The reads through it are not counted as hits.
  template <class T>
  const T* local_read(global_ptr<T> p, std::size_t n) {
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= B);
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

  /// Blocking read of one element.
  template <class T>
  T read(global_ptr<T> p) {
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= B);
    T v;
    if (!hit_read(p.rank, p.offset, &v, sizeof(T))) e_.read_miss(p.rank, p.offset, &v, sizeof(T));
    return v;
  }
  /// Blocking write of one element: returns once the block is Modified here with the value.
  template <class T>
  void write(global_ptr<T> p, const T& v) {
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= B);
    if (!hit_write(p.rank, p.offset, &v, sizeof(T))) e_.write_miss(p.rank, p.offset, &v, sizeof(T));
  }
  /// Blocking read of element i of an interleaved array. On a miss to block k it also asks for
  /// blocks k+1..k+d (d = Config::prefetch, those before the array's end) without waiting;
  /// see Engine::prefetch.
  template <class T>
  T read(const InterleavedArray<T, B>& a, std::size_t i) {
    const global_ptr<T> p = a[i];
    T v;
    if (!hit_read(p.rank, p.offset, &v, sizeof(T))) read_miss_prefetching(a, i, &v);
    return v;
  }
  /// Blocking write of element i of an interleaved array (no prefetch).
  template <class T>
  void write(const InterleavedArray<T, B>& a, std::size_t i, const T& v) {
    write(a[i], v);
  }
  /// Asks for a Shared copy of p's block without waiting (Engine::prefetch); true when a
  /// request went out.
  template <class T>
  bool prefetch(global_ptr<T> p) {
    const bool sent = e_.prefetch(p.rank, p.offset);
    e_.flush();
    return sent;
  }
  /// Split-phase bulk get of n elements into dst; complete at sync().
  template <class T>
  void get(T* dst, global_ptr<T> p, std::size_t n) {
    split(p, n, [&](std::uint64_t off, std::size_t done, std::size_t len) {
      auto* d = reinterpret_cast<std::uint8_t*>(dst) + done;
      if (!hit_read(p.rank, off, d, len)) e_.get_miss(p.rank, off, d, len);
    });
    e_.flush();
  }
  /// Split-phase bulk put of n elements from src (copied now); complete at sync().
  template <class T>
  void put(global_ptr<T> p, const T* src, std::size_t n) {
    put_blocks(p, src, n, false);
  }
  /// Split-phase bulk store: the home writes the data and ends up owning the blocks.
  template <class T>
  void store(global_ptr<T> p, const T* src, std::size_t n) {
    split(p, n, [&](std::uint64_t off, std::size_t done, std::size_t len) {
      e_.store(p.rank, off, reinterpret_cast<const std::uint8_t*>(src) + done, len);
    });
    e_.flush();
  }
  /// Blocking bulk copies.
  template <class T>
  void read_bulk(T* dst, global_ptr<T> p, std::size_t n) {
    get(dst, p, n);
    sync();
  }
  /// The blocking put reads src in place as each block's grant arrives (a put copies it when
  /// issued): one copy of the data fewer, and no staging memory.
  template <class T>
  void write_bulk(global_ptr<T> p, const T* src, std::size_t n) {
    put_blocks(p, src, n, true);
    sync();
  }

  void sync() { e_.sync(); }
  void barrier() { e_.barrier(); }
  void lock(int id) { e_.lock(id); }
  void unlock(int id) { e_.unlock(id); }
  void poll() { e_.poll(); }
  Stats stats() const { return e_.stats(); }

  /// The inline hit paths (also used by the micro-benchmarks).
  /// A run of accesses to one block compares one key (the engine's hit memo); a new block
  /// probes the directory once, out of line, and is remembered.
  bool hit_read(int home, std::uint64_t off, void* dst, std::size_t len) {
    const Engine::HitMemo& m = e_.read_memo();
    if (__builtin_expect(Engine::key(home, off >> kShift) != m.key, 0) && !remember_read(home, off))
      return false;
    std::memcpy(dst, m.base + (off & (B - 1)), len);
    ++e_.hit_counter();
    return true;
  }
  bool hit_write(int home, std::uint64_t off, const void* src, std::size_t len) {
    const Engine::HitMemo& m = e_.write_memo();
    if (__builtin_expect(Engine::key(home, off >> kShift) != m.key, 0) &&
        !remember_write(home, off))
      return false;
    std::int64_t& hits = e_.hit_counter();
    std::uint8_t* dst = m.base + (off & (B - 1));
    ++hits;  // before the copy, which may alias anything
    std::memcpy(dst, src, len);
    return true;
  }

 private:
  static constexpr int kShift = __builtin_ctzll(B);

  // put() and write_bulk(): each block's part written now when this rank may, else a write
  // request (the source copied, or read in place when `borrow`); then one flush.
  template <class T>
  void put_blocks(global_ptr<T> p, const T* src, std::size_t n, bool borrow) {
    split(p, n, [&](std::uint64_t off, std::size_t done, std::size_t len) {
      const auto* s = reinterpret_cast<const std::uint8_t*>(src) + done;
      if (!hit_write(p.rank, off, s, len)) e_.put_miss(p.rank, off, s, len, borrow);
    });
    e_.flush();
  }

  // Probes the directory for a block the memo does not hold; remembers it when it may be read
  // (written). Out of line, so that the memo check stays a few instructions.
  [[gnu::noinline]] bool remember_read(int home, std::uint64_t off) {
    std::uint8_t* p = readable(home, off);
    if (!p) return false;
    e_.read_memo() = {Engine::key(home, off >> kShift), p - (off & (B - 1))};
    return true;
  }
  [[gnu::noinline]] bool remember_write(int home, std::uint64_t off) {
    std::uint8_t* p = writable(home, off);
    if (!p) return false;
    const Engine::HitMemo m{Engine::key(home, off >> kShift), p - (off & (B - 1))};
    e_.write_memo() = m;
    e_.read_memo() = m;  // writable is readable
    return true;
  }

  // The miss of read(array, i): the next Config::prefetch blocks of the array go with it.
  template <class T>
  [[gnu::noinline]] void read_miss_prefetching(const InterleavedArray<T, B>& a, std::size_t i,
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

  std::uint8_t* readable(int home, std::uint64_t off) {
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
  std::uint8_t* writable(int home, std::uint64_t off) {
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
  // Calls f(offset, bytes done, bytes) for each piece of [p, p+n): cached, each block's part;
  // sc, pieces of kScBulkBytes from the start (sc bypasses the protocol: no block boundaries).
  template <class T, class F>
  void split(global_ptr<T> p, std::size_t n, F&& f) {
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

  Engine& e_;
  int me_;
  std::uint8_t* seg_;
  bool cached_;
  std::size_t prefetch_;
};

/// Calls f(Dsm<B>&) for the engine's block size (through with_block_size).
template <class F>
decltype(auto) dispatch_block_size(Engine& engine, F&& f) {
  return with_block_size(engine.block_bytes(), [&](auto b) -> decltype(auto) {
    Dsm<decltype(b)::value> d(engine);
    return f(d);
  });
}

/// Creates an Engine on `comm` (collective) and calls f(Dsm<B>&) with the compiled B equal to
/// config.block_bytes: the one run-time dispatch. Returns what f returns.
template <class F>
decltype(auto) with_dsm(MPI_Comm comm, const Config& config, F&& f) {
  Engine engine(comm, config);
  return dispatch_block_size(engine, std::forward<F>(f));
}

}  // namespace swcc
