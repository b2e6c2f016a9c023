// The MPI world comops runs in: init/finalize, rank and size, a barrier that sleeps instead of
// spinning (so parked ranks leave the cores to the participants), and agreement helpers.
#pragma once

#include <string>

namespace comops {

class World {
 public:
  World(int* argc, char*** argv);  ///< MPI_Init_thread (MPI_THREAD_FUNNELED)
  ~World();                        ///< finalize_mpi(): barrier, MPI_Finalize
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  bool is_root() const { return rank_ == 0; }

  /// A barrier over all world ranks that polls with short sleeps, not a busy spin.
  void quiet_barrier() const;

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
};

}  // namespace comops
