// A process team's shared windows: the room check agreed by every rank, MPI_Win_allocate_shared in
// rank 0's segment, the lock_all epoch, MPI_Win_sync, and addresses named by window and offset.
#include "comops/shm/process_space.hpp"

#include <fmt/format.h>
#include <sys/statvfs.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <limits>
#include <string>
#include <utility>

#include "comops/op.hpp"

namespace comops::shm {
namespace {

// The flags the op code keeps in the windows must be address-free, which C++ promises for
// lock-free atomics only: a mutex-backed atomic would lock a mutex private to each process.
static_assert(std::atomic<std::uint64_t>::is_always_lock_free &&
                  std::atomic<int>::is_always_lock_free && std::atomic<bool>::is_always_lock_free,
              "the process team's flags need lock-free (address-free) atomics");

constexpr const char* kShmDir = "/dev/shm";  // where MPICH and Open MPI put shared segments

std::size_t round_to_pages(std::size_t bytes) {
  return (std::max<std::size_t>(bytes, 1) + kPageBytes - 1) / kPageBytes * kPageBytes;
}

// Bytes an unprivileged process may still write into /dev/shm; the largest size_t when unknown.
std::uint64_t shm_room_bytes() {
  struct statvfs fs {};
  if (::statvfs(kShmDir, &fs) != 0) return std::numeric_limits<std::uint64_t>::max();
  return static_cast<std::uint64_t>(fs.f_bavail) * static_cast<std::uint64_t>(fs.f_frsize);
}

std::string mpi_error_text(int code) {
  char text[MPI_MAX_ERROR_STRING] = {};
  int len = 0;
  MPI_Error_string(code, text, &len);
  return std::string(text, static_cast<std::size_t>(std::max(len, 0)));
}

}  // namespace

ProcessSpace::ProcessSpace(MPI_Comm node, std::size_t window_max, std::string backend)
    : node_(node), window_max_(window_max), backend_(std::move(backend)) {
  MPI_Comm_rank(node_, &rank_);
}

void ProcessSpace::check_room(std::size_t bytes) const {
  // The same numbers on every rank (windows are collective, bytes the same everywhere).
  if (live_bytes_ + bytes > window_max_)
    throw AgreedError(fmt::format(
        "{0}: the point needs a shared window of {1} bytes beside the {2} bytes it holds, more "
        "than --{0}-window-max={3} bytes",
        backend_, bytes, live_bytes_, window_max_));
  // Rank 0 looks at /dev/shm for all: a window past its room would fault when touched.
  std::uint64_t room = rank_ == 0 ? shm_room_bytes() : 0;
  MPI_Bcast(&room, 1, MPI_UINT64_T, 0, node_);
  if (room < bytes)
    throw AgreedError(fmt::format(
        "{}: a shared window of {} bytes does not fit the {} bytes left in {} on this node",
        backend_, bytes, room, kShmDir));
}

char* ProcessSpace::map_window(MPI_Win win) {
  int* model = nullptr;
  int has_model = 0;
  MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &has_model);
  if (!has_model || *model != MPI_WIN_UNIFIED) {
    MPI_Win_free(&win);
    throw AgreedError(backend_ +
                      ": this MPI's shared windows are not MPI_WIN_UNIFIED; loads and stores "
                      "through them would need MPI calls");
  }
  MPI_Aint size = 0;
  int disp_unit = 0;
  void* base = nullptr;
  MPI_Win_shared_query(win, 0, &size, &disp_unit, &base);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
  return static_cast<char*>(base);
}

std::shared_ptr<void> ProcessSpace::allocate(std::size_t bytes) {
  // A page more than asked: the block starts at the first page boundary of the segment.
  const std::size_t rounded = round_to_pages(bytes) + kPageBytes;
  check_room(rounded);
  MPI_Info info = MPI_INFO_NULL;
  MPI_Info_create(&info);
  MPI_Info_set(info, "alloc_shared_noncontig", "false");
  void* mine = nullptr;
  MPI_Win win = MPI_WIN_NULL;
  const int rc = MPI_Win_allocate_shared(rank_ == 0 ? static_cast<MPI_Aint>(rounded) : 0, 1, info,
                                         node_, &mine, &win);
  MPI_Info_free(&info);
  int failed = rc == MPI_SUCCESS ? 0 : 1;
  MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, node_);
  // A window some rank did not get is left as it is: freeing it is collective, and the run ends.
  if (failed != 0)
    throw AgreedError(fmt::format("{}: MPI_Win_allocate_shared of {} bytes failed: {}", backend_,
                                  rounded,
                                  rc == MPI_SUCCESS ? "on another rank" : mpi_error_text(rc)));
  // The window's memory is rank 0's segment (the others gave 0 bytes), one mapping in each process.
  char* base = map_window(win);
  const std::uint64_t id = next_id_++;
  windows_[id] = Window{win, base, rounded};
  live_bytes_ += rounded;
  const std::uintptr_t page =
      (reinterpret_cast<std::uintptr_t>(base) + kPageBytes - 1) / kPageBytes * kPageBytes;
  // Freeing a window is collective: a handle dropped while an exception unwinds (a failure on
  // this rank alone, which ends the job, or an AgreedError, which ends the run) leaves it to the
  // job's end rather than wait for ranks that may never come.
  return std::shared_ptr<void>(reinterpret_cast<void*>(page),
                               [this, id](void*) { release(id, std::uncaught_exceptions() == 0); });
}

void ProcessSpace::release(std::uint64_t id, bool free_window) {
  auto it = windows_.find(id);
  if (it == windows_.end()) return;
  MPI_Win_unlock_all(it->second.win);  // local: no epoch stays open, freed or not
  if (free_window) MPI_Win_free(&it->second.win);
  live_bytes_ -= it->second.bytes;
  windows_.erase(it);
}

SharedRef ProcessSpace::ref(const void* p) const {
  const auto* c = static_cast<const char*>(p);
  for (const auto& [id, w] : windows_)
    if (c >= w.base && c < w.base + w.bytes)
      return SharedRef{id, static_cast<std::uint64_t>(c - w.base)};
  throw RuntimeError(backend_ + ": a buffer outside the team's shared windows was published");
}

void* ProcessSpace::at(const SharedRef& r) const {
  auto it = windows_.find(r.block);
  if (it == windows_.end() || r.offset >= it->second.bytes)
    throw RuntimeError(backend_ + ": a published buffer names no live shared window");
  return it->second.base + r.offset;
}

void ProcessSpace::sync() {
  for (auto& [id, w] : windows_) MPI_Win_sync(w.win);
}

}  // namespace comops::shm
