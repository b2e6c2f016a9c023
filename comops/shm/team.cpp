// The team: spin-then-yield waits with abort, barriers over its shared flags, shared-state
// hand-over, buffer exchange and the thread team's allreduce.
#include "comops/shm/team.hpp"

#include <sched.h>

#include <algorithm>
#include <stdexcept>
#include <thread>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace comops::shm {
namespace {

constexpr int kSpinLimit = 4000;              // pause iterations before yielding, own core each
constexpr int kOversubscribedSpinLimit = 16;  // threads share cores: give the core away soon

void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

int usable_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

// CPUs the process may use, taken at start-up: later the harness binds the main thread (thread 0
// of every team) to one core and may leave it bound.
const int kUsableCpus = usable_cpus();

template <class T>
void combine(T* acc, const T* v, int n, Reduce op) {
  switch (op) {
    case Reduce::kMin:
      for (int i = 0; i < n; ++i) acc[i] = std::min(acc[i], v[i]);
      break;
    case Reduce::kMax:
      for (int i = 0; i < n; ++i) acc[i] = std::max(acc[i], v[i]);
      break;
    case Reduce::kSum:
      for (int i = 0; i < n; ++i) acc[i] += v[i];
      break;
  }
}

}  // namespace

void Backoff::pause() {
  if (spins_ < spin_limit_) {
    ++spins_;
    cpu_relax();
  } else {
    sched_yield();
  }
}

Team::Team(int np, Space& space, int rank)
    : np_(np),
      rounds_(0),
      spin_limit_(np <= kUsableCpus ? kSpinLimit : kOversubscribedSpinLimit),
      space_(space),
      values_(space.one_process() ? static_cast<std::size_t>(np) : 0) {
  while ((1 << rounds_) < np) ++rounds_;
  state_ = place_in<State>(space_, rank, np_, rounds_);
  // A process team: rank 0 built the flags; the others may use them once past this (the team's
  // own barrier needs them, so MPI's).
  space_.sync();
  space_.set_up_barrier();
  space_.sync();
}

void Team::fail(std::exception_ptr error) {
  {
    std::lock_guard<std::mutex> lock(error_mutex_);
    if (!error_) error_ = std::move(error);
  }
  aborted_.store(true, std::memory_order_relaxed);
}

std::exception_ptr Team::error() const {
  std::lock_guard<std::mutex> lock(error_mutex_);
  return error_;
}

void Team::barrier(int rank) {
  if (np_ == 1) return;
  const std::uint64_t e = ++state_->local[static_cast<std::size_t>(rank)].epoch;
  for (int k = 0; k < rounds_; ++k) {
    // Round k: signal participant rank + 2^k, wait for participant rank - 2^k.
    const int from = ((rank - (1 << k)) % np_ + np_) % np_;
    state_->flags[static_cast<std::size_t>(rank * rounds_ + k)].value.store(
        e, std::memory_order_release);
    wait_geq(state_->flags[static_cast<std::size_t>(from * rounds_ + k)].value, e);
  }
}

void Team::central_barrier(int /*rank*/) {
  std::atomic<int>& count = state_->central_count;
  std::atomic<std::uint64_t>& generation = state_->central_generation;
  const std::uint64_t gen = generation.load(std::memory_order_acquire);
  if (count.fetch_add(1, std::memory_order_acq_rel) == np_ - 1) {
    count.store(0, std::memory_order_relaxed);
    generation.store(gen + 1, std::memory_order_release);
    return;
  }
  wait([&] { return generation.load(std::memory_order_acquire) != gen; });
}

void Team::published_barrier(int rank) {
  space_.sync();
  barrier(rank);
  space_.sync();
}

std::shared_ptr<void> Team::hand_over(int rank) {
  barrier(rank);
  std::shared_ptr<void> obj = shared_;
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

std::vector<Peer> Team::exchange_peers(int rank, const Peer& mine) {
  Local& slot = state_->local[static_cast<std::size_t>(rank)];
  slot.send = space_.ref(mine.send);
  slot.recv = space_.ref(mine.recv);
  published_barrier(rank);
  std::vector<Peer> peers;
  for (const Local& l : state_->local)
    peers.push_back(
        Peer{static_cast<Elem*>(space_.at(l.send)), static_cast<Elem*>(space_.at(l.recv))});
  barrier(rank);  // no slot is written again before every participant has read them all
  return peers;
}

template <class T>
void Team::allreduce(int rank, T* values, int n, Reduce op) {
  if (np_ == 1 || n <= 0) return;
  if (values_.empty()) throw std::logic_error("shm: Team::allreduce on a process team");
  values_[static_cast<std::size_t>(rank)] = values;
  barrier(rank);
  // Every thread combines in rank order, so floating-point sums agree bit for bit.
  std::vector<T> acc(static_cast<const T*>(values_[0]), static_cast<const T*>(values_[0]) + n);
  for (int r = 1; r < np_; ++r)
    combine(acc.data(), static_cast<const T*>(values_[static_cast<std::size_t>(r)]), n, op);
  barrier(rank);  // nobody overwrites its values before all have read them
  std::copy(acc.begin(), acc.end(), values);
}

template void Team::allreduce<double>(int, double*, int, Reduce);
template void Team::allreduce<std::int64_t>(int, std::int64_t*, int, Reduce);

void ThreadComm::allreduce(double* values, int n, Reduce op) {
  team_.allreduce(rank_, values, n, op);
}

void ThreadComm::allreduce(std::int64_t* values, int n, Reduce op) {
  team_.allreduce(rank_, values, n, op);
}

TeamComm& team_comm(Comm& comm) {
  auto* tc = dynamic_cast<TeamComm*>(&comm);
  if (tc == nullptr) throw RuntimeError("shm: an operation was built outside a shm thread team");
  return *tc;
}

}  // namespace comops::shm
