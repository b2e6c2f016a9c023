// The swcc backend family: COMOPS on MPI processes through the software DSM (swcc-<block>,
// swcc-sc).
#pragma once

#include <memory>

#include "comops/op.hpp"

namespace comops {

/// The "swcc" family: one configured backend per --block-size value ("swcc-64"), plus "swcc-sc"
/// with --uncached.
///
/// A body that throws on one participant only: spmd rethrows it on that rank; the others, which
/// are waiting for it, fail after a bounded wait instead of hanging, but not at once:
///   - in SwccComm::barrier()/allreduce() (the harness's waits): RuntimeError after
///     SwccComm::kDefaultTimeoutS (120 s);
///   - in a DSM wait (Engine::wait_until: misses, sync, the DSM barrier, locks, and the barrier
///     of ~Engine): the engine's watchdog throws RuntimeError with a directory dump after
///     Config::watchdog_s (60 s) for an unanswered request, or 2 x watchdog_s of waiting;
///   - in a blocking MPI call (Engine construction's MPI_Comm_dup, alloc's MPI_Allreduce): they
///     do hang; only the launcher's or ctest's timeout ends them.
/// The driver then sees the failure on every rank (its quiet barrier and max of errors).
std::unique_ptr<BackendFamily> make_swcc_family();

}  // namespace comops
