// The shm backend: a team of OpenMP threads on world rank 0, one backend per scheme.
#include "comops/shm/backend.hpp"

#include <fmt/format.h>
#include <mpi.h>
#include <omp.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "comops/shm/scheme_option.hpp"
#include "comops/shm/shm_op.hpp"
#include "comops/shm/team.hpp"
#include "comops/shm/thread_space.hpp"

namespace comops {
namespace {

constexpr int kMaxThreads = 1024;

// Fork and join edges of the parallel region as C++ atomics, so ThreadSanitizer sees the
// happens-before that libgomp (not instrumented) provides: the main thread releases before the
// region and every team thread acquires first thing; team threads release last thing and the
// main thread acquires after the region. What a team thread needs is handed over in g_launch,
// not captured by the region: the captured variables would be written by the main thread after
// its release, inside libgomp's call, and read before the acquire.
std::atomic<std::uint64_t> g_fork{0};
std::atomic<std::uint64_t> g_join{0};
struct Launch {
  shm::Team* team = nullptr;
  const std::function<void(Comm&)>* body = nullptr;
};
Launch g_launch;            // written by the main thread before g_fork, under g_launch_mutex
std::mutex g_launch_mutex;  // one team at a time

// One thread of the team. Nothing may leave it by an exception: failures go to the team, which
// wakes every waiting thread with TeamAborted, and spmd rethrows the first one afterwards.
void team_thread() {
  (void)g_fork.load(std::memory_order_acquire);
  shm::Team& team = *g_launch.team;
  try {
    const int got = omp_get_num_threads();
    if (got != team.size())
      throw RuntimeError(
          fmt::format("shm: OpenMP gave {} threads, {} requested", got, team.size()));
    shm::ThreadComm comm(team, omp_get_thread_num());
    (*g_launch.body)(comm);
  } catch (const shm::TeamAborted&) {
  } catch (...) {
    team.fail(std::current_exception());
  }
  g_join.fetch_add(1, std::memory_order_release);
}

int world_rank() {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) return 0;
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return 0;
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

class ShmBackend final : public Backend {
 public:
  explicit ShmBackend(shm::Scheme scheme) : scheme_(scheme) {}

  std::string label() const override { return fmt::format("shm-{}", shm::scheme_name(scheme_)); }
  Participants participants() const override { return Participants::kThreads; }
  OpTable ops() const override { return shm::op_table(scheme_); }
  int max_participants() const override { return kMaxThreads; }

  using Backend::spmd;
  void spmd(const Group& group, const std::function<void(Comm&)>& body) override {
    if (world_rank() != 0) return;
    const int np = group.size();
    if (np < 1 || np > kMaxThreads)
      throw UsageError(fmt::format("shm: {} threads requested, expected 1 to {}", np, kMaxThreads));
    std::unique_lock<std::mutex> lock(g_launch_mutex, std::try_to_lock);
    if (!lock.owns_lock())
      throw RuntimeError("shm: spmd called while another shm team runs (nested or concurrent)");
    shm::ThreadSpace space;
    shm::Team team(np, space);
    g_launch = Launch{&team, &body};
    omp_set_dynamic(0);
    g_fork.fetch_add(1, std::memory_order_release);
#pragma omp parallel num_threads(np)
    team_thread();
    (void)g_join.load(std::memory_order_acquire);
    g_launch = Launch{};
    if (std::exception_ptr error = team.error()) std::rethrow_exception(error);
  }

  nlohmann::json context() const override {
    return {{"scheme", std::string(shm::scheme_name(scheme_))},
            {"threads", "OpenMP"},
            {"openmp_version", _OPENMP}};
  }

 private:
  shm::Scheme scheme_;
};

class ShmFamily final : public BackendFamily {
 public:
  std::string name() const override { return "shm"; }
  std::string description() const override {
    return "OpenMP threads in one process through shared memory (schemes: staged, direct)";
  }
  bool needs_processes() const override { return false; }

  void add_options(CLI::App& app) override {
    app.add_option("--scheme", schemes_, std::string("shm schemes, ") + shm::kSchemeHelp)
        ->delimiter(',')
        ->capture_default_str()
        ->type_name("LIST")
        ->group("shm backend");
  }

  void validate() const override { shm::parse_schemes("--scheme", schemes_); }

  std::vector<std::unique_ptr<Backend>> create() override {
    std::vector<std::unique_ptr<Backend>> out;
    for (shm::Scheme scheme : shm::parse_schemes("--scheme", schemes_))
      out.push_back(std::make_unique<ShmBackend>(scheme));
    return out;
  }

 private:
  std::vector<std::string> schemes_{"staged", "direct"};
};

}  // namespace

std::unique_ptr<BackendFamily> make_shm_family() { return std::make_unique<ShmFamily>(); }

}  // namespace comops
