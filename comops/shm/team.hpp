// A team of OpenMP threads as a comops::Comm: spin-then-yield waits that honour a team-wide abort
// flag, a dissemination barrier, a central (counter) barrier, allreduce and shared-state set-up.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

#include "comops/op.hpp"

namespace comops::shm {

/// Bytes between two independently written flags: two cache lines, so the adjacent-line
/// prefetcher does not make neighbours share.
inline constexpr std::size_t kLineBytes = 128;

/// Thrown by a wait when another thread of the team failed; caught by spmd, never seen outside.
struct TeamAborted {};

/// Spins a while with a CPU pause, then yields the core; counts one call per poll.
class Backoff {
 public:
  explicit Backoff(int spin_limit) : spin_limit_(spin_limit) {}
  void pause();

 private:
  int spin_limit_;
  int spins_ = 0;
};

/// The shared state of one spmd run of np threads. All members are safe to call concurrently from
/// the team's threads; collective calls must be made by every thread in the same order.
class Team {
 public:
  explicit Team(int np);
  Team(const Team&) = delete;
  Team& operator=(const Team&) = delete;

  int size() const { return np_; }

  /// Pause iterations before a wait starts yielding (few when the team oversubscribes the CPUs).
  int spin_limit() const { return spin_limit_; }

  /// Records the first failure and makes every current and future wait throw TeamAborted.
  void fail(std::exception_ptr error);
  bool aborted() const { return aborted_.load(std::memory_order_relaxed); }
  std::exception_ptr error() const;

  /// Waits until done() is true: spins, then yields; throws TeamAborted when the team fails.
  template <class Pred>
  void wait(Pred done) const {
    Backoff backoff(spin_limit_);
    while (!done()) {
      if (aborted()) throw TeamAborted{};
      backoff.pause();
    }
  }

  /// Waits until flag >= value (acquire).
  void wait_geq(const std::atomic<std::uint64_t>& flag, std::uint64_t value) const {
    if (flag.load(std::memory_order_acquire) >= value) return;
    wait([&] { return flag.load(std::memory_order_acquire) >= value; });
  }

  /// Dissemination barrier over per-thread sequence flags (ceil(log2 np) point-to-point rounds).
  void barrier(int rank);

  /// Central barrier: one shared arrival counter and a generation number, the classic "full
  /// barrier" of the staged scheme.
  void central_barrier(int rank);

  /// Collective: every thread gets the same object, built by thread 0 from args. When thread 0
  /// fails to build it, it rethrows its exception and every other thread throws RuntimeError.
  template <class T, class... A>
  std::shared_ptr<T> make_shared(int rank, A&&... args) {
    if (rank == 0) {
      try {
        shared_ = std::make_shared<T>(std::forward<A>(args)...);
      } catch (...) {
        shared_.reset();
        shared_error_ = std::current_exception();
      }
    }
    barrier(rank);
    auto obj = std::static_pointer_cast<T>(shared_);
    const std::exception_ptr error = shared_error_;
    barrier(rank);
    if (rank == 0) {
      shared_.reset();
      shared_error_ = nullptr;
    }
    if (!obj) {
      if (rank == 0 && error) std::rethrow_exception(error);
      throw RuntimeError("shm: thread 0 could not set up the shared state of an operation");
    }
    return obj;
  }

  /// Collective: element-wise reduction of n values in place over the team.
  template <class T>
  void allreduce(int rank, T* values, int n, Reduce op);

 private:
  struct alignas(kLineBytes) Flag {
    std::atomic<std::uint64_t> value{0};
  };
  struct alignas(kLineBytes) Local {  // written by its own thread only
    std::uint64_t epoch = 0;          // dissemination barriers passed
    const void* ptr = nullptr;        // values published by allreduce
  };

  int np_;
  int rounds_;  // dissemination rounds: ceil(log2 np)
  int spin_limit_;
  std::atomic<bool> aborted_{false};
  mutable std::mutex error_mutex_;
  std::exception_ptr error_;

  std::vector<Flag> flags_;   // np x rounds_ dissemination flags, one line each
  std::vector<Local> local_;  // one per thread
  alignas(kLineBytes) std::atomic<int> central_count_{0};
  alignas(kLineBytes) std::atomic<std::uint64_t> central_generation_{0};

  std::shared_ptr<void> shared_;  // written by thread 0 between the barriers of make_shared
  std::exception_ptr shared_error_;
};

/// One thread's view of the team.
class TeamComm final : public Comm {
 public:
  TeamComm(Team& team, int rank) : team_(team), rank_(rank) {}
  int rank() const override { return rank_; }
  int size() const override { return team_.size(); }
  void barrier() override { team_.barrier(rank_); }
  void allreduce(double* values, int n, Reduce op) override;
  void allreduce(std::int64_t* values, int n, Reduce op) override;
  Team& team() const { return team_; }

 private:
  Team& team_;
  int rank_;
};

/// The TeamComm behind comm; throws RuntimeError when comm is not one (an op built outside spmd).
TeamComm& team_comm(Comm& comm);

}  // namespace comops::shm
