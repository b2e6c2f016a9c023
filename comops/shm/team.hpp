// A team of participants sharing memory, threads of one process or processes of one node (its
// Space says which), as the op code sees it: spin-then-yield waits that honour a team-wide abort
// flag, a dissemination barrier, a central (counter) barrier, shared-state set-up and the
// exchange of the participants' buffers. The team's own flags live in a shared block.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "comops/op.hpp"
#include "comops/shm/shared_block.hpp"

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

/// One participant's buffers, as addresses in this participant's memory.
struct Peer {
  Elem* send = nullptr;
  Elem* recv = nullptr;
};

/// The state of one spmd run of np participants. All members are safe to call concurrently from
/// the team's participants; collective calls must be made by every participant in the same order.
class Team {
 public:
  /// A thread team: built by one thread before the team's threads start (rank unused). A process
  /// team: collective over the node's processes, each giving its rank.
  Team(int np, Space& space, int rank = 0);
  Team(const Team&) = delete;
  Team& operator=(const Team&) = delete;

  int size() const { return np_; }
  Space& space() const { return space_; }

  /// Pause iterations before a wait starts yielding (few when the team oversubscribes the CPUs).
  int spin_limit() const { return spin_limit_; }

  /// Records the first failure and makes every current and future wait throw TeamAborted (threads:
  /// a process team's failure ends the job instead, see comops/shm/shmp_backend.cpp).
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

  /// Dissemination barrier over per-participant sequence flags (ceil(log2 np) rounds).
  void barrier(int rank);

  /// Central barrier: one shared arrival counter and a generation number, the classic "full
  /// barrier" of the staged scheme.
  void central_barrier(int rank);

  /// Collective: every participant gets the same object, in shared memory, built by participant 0
  /// from args after an Arena& (comops/shm/shared_block.hpp: T holds ShmArrays, no pointers). When
  /// thread 0 fails to build it, it rethrows its exception and every other thread throws
  /// RuntimeError; a process team's block that cannot be had is an AgreedError everywhere.
  template <class T, class... A>
  std::shared_ptr<T> make_shared(int rank, const A&... args) {
    if (!space_.one_process()) {
      std::shared_ptr<T> obj = place_in<T>(space_, rank, args...);
      published_barrier(rank);
      return obj;
    }
    if (rank == 0) {
      try {
        shared_ = place_in<T>(space_, rank, args...);
      } catch (...) {
        shared_.reset();
        shared_error_ = std::current_exception();
      }
    }
    return std::static_pointer_cast<T>(hand_over(rank));
  }

  /// Collective: every participant's buffers, as addresses in the caller's memory (for a process
  /// team the buffers must lie in the team's blocks: Comm::allocate_buffers puts them there).
  std::vector<Peer> exchange_peers(int rank, const Peer& mine);

  /// Collective, threads only: element-wise reduction of n values in place over the team.
  template <class T>
  void allreduce(int rank, T* values, int n, Reduce op);

 private:
  struct alignas(kLineBytes) Flag {
    std::atomic<std::uint64_t> value{0};
  };
  struct alignas(kLineBytes) Local {  // written by its own participant only
    std::uint64_t epoch = 0;          // dissemination barriers passed
    SharedRef send, recv;             // buffers published by exchange_peers
  };
  // The team's flags, in a shared block (place_in).
  struct State {
    State(Arena& arena, int np, int rounds)
        : flags(arena, static_cast<std::size_t>(np) * static_cast<std::size_t>(rounds)),
          local(arena, static_cast<std::size_t>(np)) {}
    alignas(kLineBytes) std::atomic<int> central_count{0};
    alignas(kLineBytes) std::atomic<std::uint64_t> central_generation{0};
    ShmArray<Flag> flags;   // np x rounds dissemination flags, one line each
    ShmArray<Local> local;  // one per participant
  };

  // A barrier after which what every participant stored into shared blocks before it is seen
  // (Space::sync around the team's barrier).
  void published_barrier(int rank);
  // Threads: thread 0's shared_ (or shared_error_) to every thread.
  std::shared_ptr<void> hand_over(int rank);

  int np_;
  int rounds_;  // dissemination rounds: ceil(log2 np)
  int spin_limit_;
  Space& space_;
  std::shared_ptr<State> state_;
  std::atomic<bool> aborted_{false};
  mutable std::mutex error_mutex_;
  std::exception_ptr error_;

  std::vector<const void*> values_;  // threads: values published by allreduce, one per thread
  std::shared_ptr<void> shared_;     // threads: written by thread 0 between make_shared's barriers
  std::exception_ptr shared_error_;
};

/// One participant's view of the team; a thread team's or a process team's Comm derives from it.
class TeamComm : public Comm {
 public:
  TeamComm(Team& team, int rank) : team_(team), rank_(rank) {}
  int rank() const override { return rank_; }
  int size() const override { return team_.size(); }
  void barrier() override { team_.barrier(rank_); }
  Team& team() const { return team_; }

 protected:
  Team& team_;
  int rank_;
};

/// A thread of a thread team: the reductions through the team's shared memory.
class ThreadComm final : public TeamComm {
 public:
  using TeamComm::TeamComm;
  void allreduce(double* values, int n, Reduce op) override;
  void allreduce(std::int64_t* values, int n, Reduce op) override;
};

/// The TeamComm behind comm; throws RuntimeError when comm is not one (an op built outside spmd).
TeamComm& team_comm(Comm& comm);

}  // namespace comops::shm
