// The Space of a process team: every block is an MPI-3 shared-memory window of the node's
// processes (MPI_Win_allocate_shared, all of it in rank 0's segment, so one contiguous mapping in
// every process), kept in a passive-target epoch (MPI_Win_lock_all) for its life; addresses are
// named by window and offset, since each process maps a window at its own address.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "comops/shm/shared_block.hpp"

namespace comops::shm {

/// Bytes the shared windows of one point may hold together by default (--shmp-window-max,
/// --hybrid-window-max).
inline constexpr std::size_t kDefaultWindowMaxBytes = std::size_t{4} << 30;

/// Windows on a communicator of one node's processes. Every call is collective over it, except
/// ref and at. Ordering (why loads and stores through the windows are safe):
/// - every window is MPI_WIN_UNIFIED (checked; MPI's public and private copies are one memory),
///   so a process's store is the memory another process's load reads;
/// - the flags of the op code are lock-free std::atomic objects in the windows, which C++ makes
///   address-free ([atomics.lockfree]): their acquire/release order the plain loads and stores
///   around them between processes mapping the same memory as between threads, in the compiler
///   and in the processor;
/// - where processes hand over through MPI instead of a flag (after a window is made and rank 0
///   has built the shared state in it, before the first flag is used), sync() calls MPI_Win_sync
///   on every window inside the lock_all epoch, before and after the MPI_Barrier: the MPI
///   standard's recipe (its one-sided chapter's semantics of the unified model and its
///   shared-memory examples: MPI_Win_sync, a process synchronisation, MPI_Win_sync) for stores
///   made before a synchronisation to be seen after it.
class ProcessSpace final : public Space {
 public:
  /// node: the team's communicator, all on one node, its error handler MPI_ERRORS_RETURN;
  /// window_max: the bytes the live windows may hold together (--<backend>-window-max);
  /// backend: the family whose errors these are ("shmp", "hybrid"), first word of each message.
  ProcessSpace(MPI_Comm node, std::size_t window_max, std::string backend = "shmp");
  ProcessSpace(const ProcessSpace&) = delete;
  ProcessSpace& operator=(const ProcessSpace&) = delete;

  bool one_process() const override { return false; }
  /// A window of bytes (rounded up to pages), its contents undefined (what is placed in it is
  /// value-initialised by place_in, buffers zeroed by their owners). Beyond --<backend>-window-max,
  /// beyond the room /dev/shm has left, or refused by MPI: AgreedError on every rank, naming why.
  std::shared_ptr<void> allocate(std::size_t bytes) override;
  /// Throws RuntimeError for an address in none of the live windows.
  SharedRef ref(const void* p) const override;
  void* at(const SharedRef& r) const override;
  void sync() override;
  void set_up_barrier() override { MPI_Barrier(node_); }

  std::size_t live_bytes() const { return live_bytes_; }

 private:
  struct Window {
    MPI_Win win = MPI_WIN_NULL;
    char* base = nullptr;  // rank 0's segment, in this process
    std::size_t bytes = 0;
  };

  // Throws AgreedError when a window of `bytes` may not or cannot be had (every rank agrees).
  void check_room(std::size_t bytes) const;
  // The window's rank-0 segment in this process; AgreedError when it is not unified.
  char* map_window(MPI_Win win);
  // Forgets window id; frees it (collectively) when free_window.
  void release(std::uint64_t id, bool free_window);

  MPI_Comm node_;
  int rank_ = 0;
  std::size_t window_max_;
  std::string backend_;
  std::uint64_t next_id_ = 1;                // the same on every rank: windows are collective
  std::map<std::uint64_t, Window> windows_;  // the live windows, by id
  std::size_t live_bytes_ = 0;
};

}  // namespace comops::shm
