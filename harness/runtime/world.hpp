// The MPI world comops runs in: init/finalize, rank and size, a barrier that sleeps instead of
// spinning (so parked ranks leave the cores to the participants), and agreement helpers.
#pragma once

#include <exception>
#include <string>

namespace comops {

class World {
 public:
  /// MPI_Init_thread (MPI_THREAD_FUNNELED). Where MPI already runs (an MPI test's main started
  /// it), the World only joins it: the error handler and the finalize stay with that main.
  World(int* argc, char*** argv);
  ~World();  ///< finalize_mpi(): barrier, MPI_Finalize (when this World started MPI)
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  bool is_root() const { return rank_ == 0; }

  /// A barrier over all world ranks that polls with short sleeps, not a busy spin.
  void quiet_barrier() const;

  /// MPI_Barrier: every rank leaves it within microseconds of the last one's arrival (a rank
  /// asleep in quiet_barrier leaves up to its nap, 2 ms, after the others).
  void barrier() const;

  /// Largest value over all ranks (exit codes: any failure wins).
  int max(int value) const;

  /// Rank 0's value of flag, on every rank.
  bool broadcast(bool flag) const;

  /// Rank 0's string, on every rank.
  std::string broadcast(const std::string& text) const;

  /// The MPI library's version string.
  static std::string library_version();

 private:
  int rank_ = 0;
  int size_ = 1;
  bool owns_mpi_ = true;
};

/// Runs `work` on rank 0 alone, the other ranks waiting in quiet_barrier(), and agrees how it
/// ended: when it threw a Caught, every rank throws an Error with its message (what()).
template <class Error, class Caught = std::exception, class Work>
void on_root_agreed(const World& world, Work&& work) {
  std::string error;
  bool failed = false;
  if (world.is_root()) {
    try {
      work();
    } catch (const Caught& e) {
      failed = true;  // also when what() is empty
      error = e.what();
    }
  }
  world.quiet_barrier();
  if (!world.broadcast(failed)) return;
  throw Error(world.broadcast(error));
}

}  // namespace comops
