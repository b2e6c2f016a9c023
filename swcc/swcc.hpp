// swcc: a software cache-coherent distributed shared memory over MPI (the SWCC-Split-C design).
//
// This header is the library's API (target swcc::dsm, which needs MPI and fmt only); the
// implementation is behind it, in swcc/detail/. A complete program, compiled and run by the
// tests: swcc/examples/hello_dsm.cpp. The protocol, the transport and the tests: swcc/README.md.
//
// Memory: every rank owns a global segment; a global address, global_ptr<T>, is (rank, byte
// offset in that rank's segment). Memory is coherent in blocks of B bytes (one of kBlockSizes,
// default kDefaultBlockBytes = 64) kept by an MSI invalidation protocol serialised at each
// block's home. with_dsm() chooses B once at run time (Config::block_bytes) and calls the
// program with a Dsm<B>, whose access paths are compiled for that B: a hit on the block the
// previous hit touched compares the home and the offset into the block and copies; a hit on
// another block checks the pointer, probes the directory once and is remembered.
// Config::uncached is Split-C's sc mode: every remote access is a request to the home, nothing
// is cached, and read/write of a rank's own memory is a plain load (store) of it, with no
// directory check.
//
// Allocation is collective: alloc<T>(n) gives every rank n elements at one offset (SpreadArray);
// alloc_interleaved<T>(n) deals n elements out in blocks round robin over the ranks
// (InterleavedArray, SCI-VM's global memory), and read(array, i) prefetches the next
// Config::prefetch blocks on a miss.
//
// Rules: read/write of one element is coherent as one block when the element lies in one block,
// which every element of an allocation does when sizeof(T) divides B. An element that crosses a
// block (a 24-byte struct at 64-byte blocks: element 2 covers bytes 48-71; any element larger
// than B) is read or written as a bulk read_bulk/write_bulk of its blocks: correct data, each
// block coherent, but not atomic across them (a concurrent writer of the other block may be seen
// half), and like read_bulk/write_bulk it syncs (completes this rank's outstanding transfers). Such
// an access takes the slow path every time; on the hit path the check costs nothing more than the
// memo compare. An InterleavedArray pads each block to whole elements and refuses (ConfigError) an
// element larger than B. Bulk get/put/store accept any range and split it into blocks (in sc mode
// into pieces of kScBulkBytes, Split-C's sc bulk messages). Pointers are checked: an access of a
// rank that does not exist, of bytes beyond a rank's segment (Config::segment_bytes rounded up to a
// whole block), or local()/local_read() of another rank's memory throws AccessError naming the
// pointer (rank, offset), the bytes and the segment; nothing is sent or copied. A home refuses a
// request outside its segment (ProtocolError). get/put/store complete at sync() (and at barrier()
// and unlock(), which sync first). Every wait (a miss, sync, barrier, lock) serves the other ranks'
// protocol messages. Only one thread per rank may use a Dsm. Up to 65535 ranks.
//
// Failures: errors are swcc::Error (swcc/errors.hpp): ConfigError for a Config the library
// refuses, Timeout when a request never completes (the watchdog, Config::watchdog_s, stretched
// by load_factor() on a loaded machine; its text dumps the directory), AccessError for a pointer
// outside the segments, LockError for a lock used wrongly. Config::on_wait is called by every
// wait and may throw to abandon it.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <type_traits>

#include "swcc/block_sizes.hpp"  // kBlockSizes, kDefaultBlockBytes, with_block_size
#include "swcc/config.hpp"       // Config, Stats, kMaxPrefetch, kScBulkBytes
#include "swcc/errors.hpp"       // Error, ConfigError, Timeout

namespace swcc {

class Engine;      // one rank's runtime, behind every Dsm (swcc/detail/engine.hpp)
struct BlockAddr;  // a block by home and offset (swcc/detail/engine.hpp)

// ---------------------------------------------------------------------------- global pointers

/// A global pointer: the element at byte `offset` of rank `rank`'s global segment.
template <class T>
struct global_ptr {
  int rank = 0;
  std::uint64_t offset = 0;
  /// The pointer i elements further in the same rank's segment.
  global_ptr operator+(std::ptrdiff_t i) const {
    return {rank, offset + static_cast<std::uint64_t>(i * static_cast<std::ptrdiff_t>(sizeof(T)))};
  }
  global_ptr& operator+=(std::ptrdiff_t i) { return *this = *this + i; }
  bool operator==(const global_ptr&) const = default;
};

/// The global pointer to byte `offset` of rank `rank`'s segment (Split-C toglobal: the same
/// offset as a local address of the calling rank, on another rank).
template <class T>
global_ptr<T> toglobal(int rank, std::uint64_t offset) {
  return {rank, offset};
}

// --------------------------------------------------------------------------------- allocation

/// A spread array: `count` elements of T on every rank at the same offset (Split-C spread
/// allocation), made by Dsm<B>::alloc (collective). on(r) is rank r's part.
template <class T>
struct SpreadArray {
  std::uint64_t offset = 0;
  std::size_t count = 0;  ///< elements per rank
  global_ptr<T> on(int rank) const { return {rank, offset}; }
};

/// An interleaved array (SCI-VM's global memory): `count` elements of T in blocks (pages) of B
/// bytes, block k homed at rank k mod P, round robin, as block k / P of that rank's part, all
/// parts at the same offset. Made by Dsm<B>::alloc_interleaved (collective). operator[] maps an
/// element index to its global pointer (without a division for blocks below 2^32);
/// Dsm<B>::read(array, i) prefetches on a miss. A block holds kPerBlock whole elements (the rest
/// of it is padding when sizeof(T) does not divide B), so no element crosses a block;
/// Dsm<B>::alloc_interleaved refuses (ConfigError) an element larger than B.
template <class T, std::size_t B>
class InterleavedArray {
 public:
  /// Elements per block (1 for an element larger than B, which alloc_interleaved refuses).
  static constexpr std::size_t kPerBlock = B >= sizeof(T) ? B / sizeof(T) : 1;
  InterleavedArray() = default;
  /// The array whose parts start at `offset` on each of `ranks` ranks (alloc_interleaved).
  InterleavedArray(std::uint64_t offset, std::size_t count, int ranks);

  std::uint64_t offset() const { return offset_; }        ///< of every rank's part
  std::size_t count() const { return count_; }            ///< elements in all
  int ranks() const { return static_cast<int>(ranks_); }  ///< P
  /// Blocks in all: ceil(count / kPerBlock).
  std::size_t blocks() const { return (count_ + kPerBlock - 1) / kPerBlock; }
  static std::size_t block_of(std::size_t i) { return i / kPerBlock; }  ///< element i's block
  int home_of_block(std::size_t k) const { return block(k).rank; }      ///< k mod P
  /// The first element of block k: rank k mod P, block k / P of that rank's part.
  global_ptr<T> block(std::size_t k) const;
  /// Element i: its block's first element plus i mod kPerBlock.
  global_ptr<T> operator[](std::size_t i) const;
  /// Bytes of one rank's part: ceil(blocks / P) blocks.
  static std::size_t part_bytes(std::size_t count, int ranks);

 private:
  std::uint64_t div_ranks(std::uint64_t k) const;  // k / P (swcc/detail/interleaved_array.hpp)
  std::uint64_t offset_ = 0;
  std::size_t count_ = 0;
  std::uint64_t ranks_ = 1;
  std::uint64_t magic_ = 0;  // ceil(2^64 / P), P > 1
};

// -------------------------------------------------------------------------------------- views

/// A view of up to one block of global memory: a span of elements read (BlockView<T, false>,
/// ReadView<T>) or read and written (BlockView<T, true>, WriteView<T>) with plain loads and
/// stores, after one coherence check for the whole block. Made by Dsm<B>::read_view and
/// write_view; the rules are in the "views" section of Dsm below. Move-only.
template <class T, bool Writable>
class BlockView {
 public:
  using element_type = std::conditional_t<Writable, T, const T>;
  BlockView() = default;
  BlockView(BlockView&&) noexcept = default;
  BlockView& operator=(BlockView&& o) noexcept;
  ~BlockView();

  std::size_t size() const { return size_; }  ///< elements in the view
  bool empty() const { return size_ == 0; }
  /// For a view of an interleaved array: the array index of element 0 (else 0).
  std::size_t first() const { return first_; }
  /// Element j (j < size()): a plain load or store. Checked against stale use only in builds
  /// without NDEBUG.
  element_type& operator[](std::size_t j) const;
  /// The elements; check() first (one compare), so iterating a stale view throws.
  std::span<element_type> span() const;
  element_type* begin() const { return span().data(); }
  element_type* end() const { return data_ + size_; }
  /// False once this rank has served a protocol message since the view was taken: the view may
  /// be stale and must be taken again. True means it is certainly current (sc mode: see the
  /// rules; a private copy's staleness is not seen). An empty default view is valid.
  bool valid() const { return !gen_ || *gen_ == gen0_; }
  /// Throws swcc::Error naming the block when !valid().
  void check() const {
    if (__builtin_expect(!valid(), 0)) refuse_stale();
  }

 private:
  [[noreturn, gnu::cold, gnu::noinline]] void refuse_stale() const;  // swcc/detail/view.hpp
  template <std::size_t>
  friend class Dsm;
  element_type* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t first_ = 0;
  const std::uint64_t* gen_ = nullptr;  // the engine's count of message deliveries
  std::uint64_t gen0_ = 0;              // its value when the view was taken
  int home_ = 0;
  std::uint64_t off_ = 0;
  // sc mode, a block homed elsewhere: the private copy, and for a write view the engine that
  // writes it back when the view ends.
  std::unique_ptr<std::uint8_t[]> copy_;
  Engine* write_back_ = nullptr;
};
template <class T>
using ReadView = BlockView<T, false>;  ///< Dsm<B>::read_view
template <class T>
using WriteView = BlockView<T, true>;  ///< Dsm<B>::write_view

// ------------------------------------------------------------------------------------ the DSM

/// The DSM with block size B compiled in. Create it through with_dsm().
template <std::size_t B>
class Dsm {
  static_assert(valid_block_bytes(B), "B must be one of kBlockSizes");

 public:
  static constexpr std::size_t kBlockBytes = B;  ///< the coherence block size
  /// A Dsm on `engine` (with_dsm makes both; a benchmark may build its Engine itself).
  explicit Dsm(Engine& engine);

  int rank() const { return me_; }  ///< this rank
  int size() const;                 ///< the ranks of the DSM (P)
  Engine& engine() { return e_; }   ///< the runtime behind it (tests and benchmarks)

  /// Collective: `count` elements of T on every rank (same offset everywhere).
  template <class T>
  SpreadArray<T> alloc(std::size_t count);
  /// Collective: `count` elements of T interleaved over all ranks in blocks of B bytes (block k
  /// homed at rank k mod P); every rank reserves ceil(blocks / P) blocks. ConfigError when
  /// sizeof(T) > B (an element must fit in a block; choose a larger Config::block_bytes).
  template <class T>
  InterleavedArray<T, B> alloc_interleaved(std::size_t count);

  /// The calling rank's own memory of a global pointer (see the Split-C caveat: once other ranks
  /// touched the block, use read/write or local_read instead). AccessError unless p.rank ==
  /// rank() and the element lies in the segment.
  template <class T>
  T* local(global_ptr<T> p);
  /// The calling rank's own n elements at p (p.rank == rank()) for reading through a local
  /// pointer, as a Split-C program reads its own part of a spread array: every block of the
  /// range that another rank holds Modified is fetched back first (a read miss each), so that
  /// home memory is current. The pointer stays valid until the next barrier provided no rank
  /// writes the range before it; other ranks may read it meanwhile. Its reads are not hits.
  /// AccessError unless p.rank == rank() and the n elements lie in the segment.
  template <class T>
  const T* local_read(global_ptr<T> p, std::size_t n);

  /// Blocking read of one element (cached after a miss); one that crosses a block is a
  /// read_bulk (see "Rules").
  template <class T>
  T read(global_ptr<T> p);
  /// Blocking write of one element: returns once the block is Modified here with the value; one
  /// that crosses a block is a write_bulk (see "Rules").
  template <class T>
  void write(global_ptr<T> p, const T& v);
  /// Blocking read of element i of an interleaved array. A miss to block k also asks for blocks
  /// k+1..k+d (d = Config::prefetch, those before the array's end) without waiting for them.
  template <class T>
  T read(const InterleavedArray<T, B>& a, std::size_t i);
  /// Blocking write of element i of an interleaved array (no prefetch).
  template <class T>
  void write(const InterleavedArray<T, B>& a, std::size_t i, const T& v);
  /// Asks for a Shared copy of p's block without waiting; true when a request went out (none in
  /// sc mode, for a block readable here already, or one with a request outstanding).
  template <class T>
  bool prefetch(global_ptr<T> p);

  /// Split-phase bulk get of n elements into dst; complete at sync().
  template <class T>
  void get(T* dst, global_ptr<T> p, std::size_t n);
  /// Split-phase bulk put of n elements from src (copied now); complete at sync().
  template <class T>
  void put(global_ptr<T> p, const T* src, std::size_t n);
  /// Split-phase bulk store: the home writes the data and ends up owning the blocks; complete
  /// at sync().
  template <class T>
  void store(global_ptr<T> p, const T* src, std::size_t n);
  /// Blocking bulk get: get, then sync.
  template <class T>
  void read_bulk(T* dst, global_ptr<T> p, std::size_t n);
  /// Blocking bulk put. It reads src in place as each block's grant arrives (a put copies it
  /// when issued): one copy of the data fewer, and no staging memory.
  template <class T>
  void write_bulk(global_ptr<T> p, const T* src, std::size_t n);

  void sync();     ///< waits for this rank's outstanding get, put, store and prefetch
  void barrier();  ///< sync, then a barrier of all ranks that serves protocol messages
  /// A global lock (id >= 0) homed at rank id % P. LockError for a negative id or a lock this
  /// rank holds already (locks are not re-entrant).
  void lock(int id);
  void unlock(int id);  ///< syncs, then releases lock `id`; LockError unless this rank holds it
  void poll();          ///< serves protocol messages once (the progress engine)
  Stats stats() const;  ///< this rank's counters since the engine was built

  /// The inline hit paths (also used by the micro-benchmarks): [off, off+len) inside one block
  /// of `home`'s segment is copied out (in) when this rank may read (write) it, and counted as
  /// a hit; false, with nothing done, when it needs a request or crosses a block (the engine's
  /// misses refuse such a range: AccessError). AccessError for a pointer outside the segments.
  bool hit_read(int home, std::uint64_t off, void* dst, std::size_t len);
  bool hit_write(int home, std::uint64_t off, const void* src, std::size_t len);

  // ---------------------------------------------------------------------------------- views
  // A view checks coherence once for a block and then gives plain loads (and, for a write
  // view, stores) over the elements it spans: read_view(p, n) spans [p, p + m) with m <= n the
  // elements from p that lie in p's block (loop on size() to cover a longer range); the
  // interleaved form spans the elements of the block that holds element i. A read view needs
  // the block readable here (a hit, else one read miss: the interleaved form prefetches like
  // read(array, i)); a write view needs it Modified here (a hit, else one write miss, which
  // invalidates the other copies) and writes straight into it. A view counts one hit, or the
  // misses it took (one, unless the block was taken away again before the miss returned).
  //
  // Rules. A view is valid until this rank next serves protocol messages: any call that may
  // wait or poll (a read or write that misses, taking another view that misses, get, put,
  // store, prefetch, read_bulk, write_bulk, local_read, sync, barrier, lock, unlock, poll).
  // Only those calls serve other ranks' invalidations and flushes, so between them the block
  // cannot leave this rank: a write view keeps it Modified without holding the write lock
  // across calls (which would make other ranks' requests wait on a rank that is itself
  // waiting). After such a call the view may be stale: take it again. valid() tells (it
  // compares a count of delivered messages; the hits do not change it), span() and begin()
  // throw swcc::Error on a stale view, operator[] only in builds without NDEBUG, so the plain
  // loads cost nothing. Several views may be live at once if taking each one hits; a view
  // that misses may end the others. Writes through a write view are ordinary writes of the
  // block: other ranks see them after the usual synchronisation (a barrier, or unlock then
  // lock). Views are per rank and not thread-safe, like the Dsm, and must not outlive it.
  //
  // sc mode (Config::uncached): a view of this rank's own memory points into it (sc keeps no
  // copies, so home memory is always current); a view of another rank's block is a private
  // copy fetched by one bulk read, and a write view writes its whole span back with a put when
  // it ends (destroyed or assigned), complete at the next sync() or barrier. Meanwhile no other
  // rank may write that span (it would be overwritten), as for any racing sc write.
  //
  // Errors: an element must not cross the block (sizeof(T) must divide B and p be aligned to
  // T in its block): else swcc::Error; n = 0 or an index past the array's end give an empty
  // view.

  /// Up to n elements from p, as many as lie in p's block, for reading.
  template <class T>
  ReadView<T> read_view(global_ptr<T> p, std::size_t n);
  /// Up to n elements from p, as many as lie in p's block, for reading and writing.
  template <class T>
  WriteView<T> write_view(global_ptr<T> p, std::size_t n);
  /// The elements of a's block that holds element i (first() is the block's first index).
  template <class T>
  ReadView<T> read_view(const InterleavedArray<T, B>& a, std::size_t i);
  template <class T>
  WriteView<T> write_view(const InterleavedArray<T, B>& a, std::size_t i);

 private:  // swcc/detail/dsm_impl.hpp and hit_path.hpp
  static constexpr int kShift = __builtin_ctzll(B);
  template <class T>
  void put_blocks(global_ptr<T> p, const T* src, std::size_t n, bool borrow);
  template <bool W>
  [[gnu::noinline]] std::uint8_t* remember(int home, std::uint64_t off, std::size_t len);
  template <class T>
  [[gnu::noinline]] void read_slow(global_ptr<T> p, T* v);  // a miss, or an element across blocks
  template <class T>
  [[gnu::noinline]] void write_slow(global_ptr<T> p, const T& v);
  template <class T>
  void check_range(const char* what, global_ptr<T> p, std::size_t n) const;
  template <class T>
  [[gnu::noinline]] void read_miss_prefetching(const InterleavedArray<T, B>& a, std::size_t i,
                                               T* v);
  std::uint8_t* readable(int home, std::uint64_t off);
  std::uint8_t* writable(int home, std::uint64_t off);
  template <class T, class F>
  void split(global_ptr<T> p, std::size_t n, F&& f);
  template <class T>
  T sc_local(global_ptr<T> p, const T* store = nullptr);  // dsm_impl.hpp
  // swcc/detail/view.hpp: the view of [p, p + n) clipped to p's block; read_miss() fetches
  // the block when a read view misses (with prefetch for an interleaved array).
  template <class T, bool W, class ReadMiss>
  BlockView<T, W> make_view(global_ptr<T> p, std::size_t n, ReadMiss&& read_miss);
  template <class T>
  [[gnu::noinline]] void view_read_miss(const InterleavedArray<T, B>& a, std::size_t k);

  /// The probe's inline test before Engine::check_pointer, which throws the error: the rank
  /// exists, and the home's own bytes lie in its segment (hit_path.hpp).
  bool pointer_ok(int home, std::uint64_t off, std::size_t len) const;
  [[noreturn, gnu::cold, gnu::noinline]] void refuse_pointer(const char* what, int home,
                                                             std::uint64_t off,
                                                             std::size_t len) const;

  Engine& e_;
  int me_;
  int ranks_;
  std::uint64_t segment_bytes_;
  std::uint8_t* seg_;
  bool cached_;
  std::size_t prefetch_;
};

/// Calls f(Dsm<B>&) on `engine` for the engine's block size (through with_block_size); returns
/// what f returns.
template <class F>
decltype(auto) dispatch_block_size(Engine& engine, F&& f);

/// Creates an Engine on `comm` (collective) and calls f(Dsm<B>&) with the compiled B equal to
/// config.block_bytes: the one run-time dispatch. Returns what f returns. Throws ConfigError
/// for a Config the library refuses.
template <class F>
decltype(auto) with_dsm(MPI_Comm comm, const Config& config, F&& f);

}  // namespace swcc

// The bodies of the templates above, and the engine behind them.
#include "swcc/detail/dsm_impl.hpp"
// The views (Dsm<B>::read_view, write_view).
#include "swcc/detail/view.hpp"
