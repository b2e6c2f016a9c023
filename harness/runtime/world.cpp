// MPI world lifecycle, a sleeping barrier and rank agreement.
#include "harness/runtime/world.hpp"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>

#include "harness/runtime/finalize.hpp"

namespace comops {
namespace {

// How long a rank whose MPI call failed waits before it aborts the job.
constexpr auto kGraceBeforeAbort = std::chrono::seconds(3);

// An MPI call failed on this rank. Most often a peer is gone (killed, or its host lost): the
// launcher sees that process end and reports it by rank and host (which comops, run directly,
// turns into one line), unless this rank's abort reaches it first. So the rank waits a moment,
// during which the launcher usually ends the job, and only then aborts with the MPI error,
// printing MPICH's error text as MPI_ERRORS_ARE_FATAL would.
void abort_after_grace(MPI_Comm* comm, int* code, ...) {
  std::this_thread::sleep_for(kGraceBeforeAbort);
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(*code, text, &len);
  std::fprintf(stderr, "comops: error: an MPI call failed: %.*s\n", len, text);
  MPI_Abort(*comm, *code);
}

}  // namespace

World::World(int* argc, char*** argv) {
  int running = 0;
  MPI_Initialized(&running);
  owns_mpi_ = running == 0;
  if (owns_mpi_) {
    int provided = 0;
    MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  if (!owns_mpi_) return;
  // Communicators made from the world (the points' sub-communicators, swcc's) inherit it.
  MPI_Errhandler handler;
  MPI_Comm_create_errhandler(abort_after_grace, &handler);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, handler);
  MPI_Errhandler_free(&handler);
}

// finalize_mpi(), not MPI_Finalize(): MPICH 4.0.2 over UCX TCP can hang there (finalize.cpp).
World::~World() {
  if (owns_mpi_) finalize_mpi();
}

void World::quiet_barrier() const {
  if (size_ == 1) return;
  MPI_Request req;
  MPI_Ibarrier(MPI_COMM_WORLD, &req);
  int done = 0;
  auto nap = std::chrono::microseconds(20);
  for (int spins = 0;; ++spins) {
    MPI_Test(&req, &done, MPI_STATUS_IGNORE);
    if (done) break;
    // A few quick polls first (points end within microseconds of each other), then sleeps
    // growing to 2 ms, so a parked rank wakes rarely while other backends measure.
    if (spins > 100) {
      std::this_thread::sleep_for(nap);
      nap = std::min(nap * 2, std::chrono::microseconds(2000));
    }
  }
}

void World::barrier() const {
  if (size_ > 1) MPI_Barrier(MPI_COMM_WORLD);
}

int World::max(int value) const {
  int out = value;
  MPI_Allreduce(&value, &out, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return out;
}

bool World::broadcast(bool flag) const {
  int v = flag ? 1 : 0;
  MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return v != 0;
}

std::string World::broadcast(const std::string& text) const {
  int n = static_cast<int>(text.size());
  MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::string out = rank_ == 0 ? text : std::string(static_cast<std::size_t>(n), '\0');
  MPI_Bcast(out.data(), n, MPI_CHAR, 0, MPI_COMM_WORLD);
  return out;
}

std::string World::library_version() {
  char buf[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  MPI_Get_library_version(buf, &len);
  // MPICH's string spans lines and tabs: one line, single spaces.
  std::string s;
  for (int i = 0; i < len && buf[i] != '\0'; ++i) {
    const bool space = buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n' || buf[i] == '\r';
    if (!space)
      s += buf[i];
    else if (!s.empty() && s.back() != ' ')
      s += ' ';
  }
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

}  // namespace comops
