// The swcc backend family: COMOPS on MPI processes through the software DSM (swcc-<block>,
// swcc-sc).
#pragma once

#include <memory>

#include "comops/op.hpp"

namespace comops {

/// The "swcc" family: one configured backend per --block-size value ("swcc-64"), plus "swcc-sc"
/// with --uncached.
///
/// A body that throws on one participant only: spmd rethrows it there after telling the other
/// participants through SwccComm's abort channel; whatever they wait in (the harness's barrier
/// or allreduce, a DSM miss, sync, the DSM barrier, a lock, the DSM allocator) throws
/// ParticipantFailed("participant R of N failed: <first line of its error>") at its next poll.
/// The bounded waits stay as the last resort: SwccComm::kDefaultTimeoutS (120 s) in the
/// harness's waits and the engine's watchdog (Config::watchdog_s, 60 s) in DSM waits, both
/// stretched by swcc::load_factor() on a loaded or oversubscribed machine. The driver then sees
/// the failure on every rank (its quiet barrier and max of errors).
std::unique_ptr<BackendFamily> make_swcc_family();

}  // namespace comops
