// The thread team: spin-then-yield waits with abort, barriers, allreduce.
#include "comops/shm/team.hpp"

#include <sched.h>

#include <algorithm>
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

Team::Team(int np)
    : np_(np),
      rounds_(0),
      spin_limit_(np <= kUsableCpus ? kSpinLimit : kOversubscribedSpinLimit),
      local_(static_cast<std::size_t>(np)) {
  while ((1 << rounds_) < np) ++rounds_;
  flags_ = std::vector<Flag>(static_cast<std::size_t>(np) * static_cast<std::size_t>(rounds_));
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
  const std::uint64_t e = ++local_[static_cast<std::size_t>(rank)].epoch;
  for (int k = 0; k < rounds_; ++k) {
    // Round k: signal thread rank + 2^k, wait for thread rank - 2^k.
    const int from = ((rank - (1 << k)) % np_ + np_) % np_;
    flags_[static_cast<std::size_t>(rank * rounds_ + k)].value.store(e, std::memory_order_release);
    wait_geq(flags_[static_cast<std::size_t>(from * rounds_ + k)].value, e);
  }
}

void Team::central_barrier(int /*rank*/) {
  const std::uint64_t gen = central_generation_.load(std::memory_order_acquire);
  if (central_count_.fetch_add(1, std::memory_order_acq_rel) == np_ - 1) {
    central_count_.store(0, std::memory_order_relaxed);
    central_generation_.store(gen + 1, std::memory_order_release);
    return;
  }
  wait([&] { return central_generation_.load(std::memory_order_acquire) != gen; });
}

template <class T>
void Team::allreduce(int rank, T* values, int n, Reduce op) {
  if (np_ == 1 || n <= 0) return;
  local_[static_cast<std::size_t>(rank)].ptr = values;
  barrier(rank);
  // Every thread combines in rank order, so floating-point sums agree bit for bit.
  std::vector<T> acc(static_cast<const T*>(local_[0].ptr),
                     static_cast<const T*>(local_[0].ptr) + n);
  for (int r = 1; r < np_; ++r)
    combine(acc.data(), static_cast<const T*>(local_[static_cast<std::size_t>(r)].ptr), n, op);
  barrier(rank);  // nobody overwrites its values before all have read them
  std::copy(acc.begin(), acc.end(), values);
}

template void Team::allreduce<double>(int, double*, int, Reduce);
template void Team::allreduce<std::int64_t>(int, std::int64_t*, int, Reduce);

void TeamComm::allreduce(double* values, int n, Reduce op) {
  team_.allreduce(rank_, values, n, op);
}

void TeamComm::allreduce(std::int64_t* values, int n, Reduce op) {
  team_.allreduce(rank_, values, n, op);
}

TeamComm& team_comm(Comm& comm) {
  auto* tc = dynamic_cast<TeamComm*>(&comm);
  if (tc == nullptr) throw RuntimeError("shm: an operation was built outside a shm thread team");
  return *tc;
}

}  // namespace comops::shm
