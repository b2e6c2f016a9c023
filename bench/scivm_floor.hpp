// The floor of bench/scivm_overhead's DSM versions: the time the pages a rank's share needs
// from other ranks take by plain MPI one-sided transfers, one MPI_Get (MPI_Put for pages it
// writes) of a whole page each, all in flight at once in one passive-target epoch, then one
// flush. A DSM that moves each of those pages once can add no less to the local time; the
// optimised versions' overhead is reported beside it.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace scivm {

/// A page of an interleaved array: its home and its byte offset in the home's part.
struct Page {
  int home;
  std::uint64_t disp;
};

/// One rank's part of an interleaved array in an MPI window (collective), and the timed
/// transfer of a list of its pages.
class PageWindow {
 public:
  PageWindow(std::size_t part_bytes, MPI_Comm comm) : part_(part_bytes) {
    MPI_Win_create(part_.data(), static_cast<MPI_Aint>(part_.size()), 1, MPI_INFO_NULL, comm,
                   &win_);
  }
  ~PageWindow() { MPI_Win_free(&win_); }
  PageWindow(const PageWindow&) = delete;
  PageWindow& operator=(const PageWindow&) = delete;

  std::uint8_t* part() { return part_.data(); }  ///< this rank's part (fill before use)

  /// Starts the gets of `pages` (page_bytes each) into `dst`, one after another, without
  /// waiting (inside an epoch: open()).
  void get(const std::vector<Page>& pages, std::size_t page_bytes, std::uint8_t* dst) {
    for (std::size_t i = 0; i < pages.size(); ++i)
      MPI_Get(dst + i * page_bytes, static_cast<int>(page_bytes), MPI_BYTE, pages[i].home,
              static_cast<MPI_Aint>(pages[i].disp), static_cast<int>(page_bytes), MPI_BYTE, win_);
  }
  /// Starts the puts of `src` to `pages`.
  void put(const std::vector<Page>& pages, std::size_t page_bytes, const std::uint8_t* src) {
    for (std::size_t i = 0; i < pages.size(); ++i)
      MPI_Put(src + i * page_bytes, static_cast<int>(page_bytes), MPI_BYTE, pages[i].home,
              static_cast<MPI_Aint>(pages[i].disp), static_cast<int>(page_bytes), MPI_BYTE, win_);
  }
  void open() { MPI_Win_lock_all(0, win_); }
  void complete() { MPI_Win_flush_all(win_); }  ///< every get and put started is done
  void close() { MPI_Win_unlock_all(win_); }

 private:
  std::vector<std::uint8_t> part_;
  MPI_Win win_ = MPI_WIN_NULL;
};

}  // namespace scivm
