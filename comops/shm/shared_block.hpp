// Memory a team shares and the objects placed in it: arrays that find their elements from their
// own address (valid in every process that maps the block, at whatever address), a bump arena that
// sizes or fills a block, and the Space through which a team gets its blocks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <stdexcept>
#include <type_traits>
#include <utility>

namespace comops::shm {

inline constexpr std::size_t kPageBytes = 4096;

/// Hands out the bytes of one shared block, in the order a constructor asks for them. Sizing (the
/// default constructor): no memory, only the count of bytes asked for, alignment padding included
/// at its worst; placing: carves the same requests from [base, base + bytes) and value-initialises
/// the objects there (zeros for integers and flags).
class Arena {
 public:
  Arena() = default;
  Arena(void* base, std::size_t bytes) : base_(static_cast<char*>(base)), bytes_(bytes) {}

  bool placing() const { return base_ != nullptr; }
  std::size_t used() const { return used_; }  ///< bytes asked for so far (sizing: an upper bound)

  /// Space for n objects of T aligned to `align`, value-initialised; null while sizing or for n 0.
  template <class T>
  T* take(std::size_t n, std::size_t align = alignof(T)) {
    void* at = take_bytes(n * sizeof(T), align);
    if (at == nullptr) return nullptr;
    T* first = static_cast<T*>(at);
    for (std::size_t i = 0; i < n; ++i) ::new (static_cast<void*>(first + i)) T();
    return first;
  }

  /// n raw bytes aligned to `align`; null while sizing or for n 0. Throws std::logic_error past the
  /// block (a constructor that asked for more when placing than when sizing).
  void* take_bytes(std::size_t n, std::size_t align) {
    if (n == 0) return nullptr;
    if (!placing()) {
      used_ += n + align - 1;
      return nullptr;
    }
    const auto at = reinterpret_cast<std::uintptr_t>(base_) + used_;
    const std::uintptr_t aligned = (at + align - 1) / align * align;
    const std::size_t end = aligned - reinterpret_cast<std::uintptr_t>(base_) + n;
    if (end > bytes_) throw std::logic_error("shm: a shared block is smaller than its contents");
    used_ = end;
    return reinterpret_cast<void*>(aligned);
  }

 private:
  char* base_ = nullptr;
  std::size_t bytes_ = 0;
  std::size_t used_ = 0;
};

/// A run of objects of T inside a shared block, placed there by an Arena. It holds the run's
/// distance from itself, not an address: the same bytes name the same run in every process that
/// maps the block, wherever each maps it. Lives in the block with its run; not copyable.
template <class T>
class ShmArray {
 public:
  ShmArray(Arena& arena, std::size_t n, std::size_t align = alignof(T)) : size_(n) {
    T* at = arena.take<T>(n, align);
    if (at != nullptr)
      offset_ = static_cast<std::ptrdiff_t>(reinterpret_cast<std::uintptr_t>(at) -
                                            reinterpret_cast<std::uintptr_t>(this));
  }
  ShmArray(const ShmArray&) = delete;
  ShmArray& operator=(const ShmArray&) = delete;

  T* data() const {
    if (offset_ == 0) return nullptr;
    return reinterpret_cast<T*>(reinterpret_cast<std::uintptr_t>(this) + offset_);
  }
  std::size_t size() const { return size_; }
  T& operator[](std::size_t i) const { return data()[i]; }
  T* begin() const { return data(); }
  T* end() const { return data() + size_; }

 private:
  std::ptrdiff_t offset_ = 0;  // bytes from this to the first object; 0: no objects
  std::size_t size_ = 0;
};

/// An address in one participant's memory as every participant of the team can name it: for a
/// thread team the address itself; for a process team the block it lies in and where.
struct SharedRef {
  std::uint64_t block = 0;
  std::uint64_t offset = 0;
};

/// Where a team's shared blocks come from: the heap of one process (threads) or windows that the
/// processes of one node map together (comops/shm/process_team.hpp).
class Space {
 public:
  virtual ~Space() = default;
  /// True when the participants are threads of one process (one address space).
  virtual bool one_process() const = 0;
  /// A block of at least `bytes`, page aligned, that every participant sees. Threads: called by
  /// one thread, which hands the block to the others. Processes: collective over the team (every
  /// participant calls it with the same bytes, in the same order), the block freed collectively
  /// when every participant drops its handle at the same point; a block that cannot be had throws
  /// AgreedError on every participant.
  virtual std::shared_ptr<void> allocate(std::size_t bytes) = 0;
  /// The name of p (inside a block of this space, or anywhere for threads) for the others.
  virtual SharedRef ref(const void* p) const = 0;
  /// The address of r in this participant's memory.
  virtual void* at(const SharedRef& r) const = 0;
  /// Before and after a set-up barrier: what this participant stored into the blocks before it is
  /// seen by the others after it (processes: MPI_Win_sync on every window; threads: nothing).
  virtual void sync() {}
  /// Collective over the team without the team's flags (processes: MPI_Barrier; threads: none,
  /// the one thread that builds the team runs alone).
  virtual void set_up_barrier() {}
};

/// Builds a T in a block of `space`: the sizing pass (every caller, identically) says how big the
/// block must be, the placing pass (rank 0 only) constructs T at its start with the arena over the
/// rest. T takes an Arena& first; it must be trivially destructible (it dies with its block).
/// Collective for a process space; rank 0 alone calls it for a thread space.
template <class T, class... A>
std::shared_ptr<T> place_in(Space& space, int rank, const A&... args) {
  static_assert(std::is_trivially_destructible_v<T>, "shared state dies with its block");
  std::size_t bytes = 0;
  {
    Arena sizing;
    sizing.take_bytes(sizeof(T), alignof(T));
    alignas(T) unsigned char probe[sizeof(T)];
    ::new (static_cast<void*>(probe)) T(sizing, args...);
    bytes = sizing.used();
  }
  std::shared_ptr<void> block = space.allocate(bytes);
  Arena placing(block.get(), bytes);
  void* at = placing.take_bytes(sizeof(T), alignof(T));  // the same place on every rank
  T* obj = static_cast<T*>(at);
  if (rank == 0) obj = ::new (at) T(placing, args...);
  return std::shared_ptr<T>(std::move(block), obj);
}

}  // namespace comops::shm
