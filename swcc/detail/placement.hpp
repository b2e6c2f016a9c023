// Whether the ranks of a DSM oversubscribe the CPUs of their host: the engine's waits give the
// core away (sched_yield) only then.
#pragma once

#include <mpi.h>
#include <sched.h>

#include <cstdint>
#include <functional>
#include <vector>

namespace swcc {

/// Where one rank runs: its host (a hash of the host name) and the CPUs it may use.
struct RankPlacement {
  std::uint64_t host = 0;
  cpu_set_t cpus{};
};

/// This process's placement (gethostname, sched_getaffinity; every CPU of the machine where the
/// affinity cannot be read).
RankPlacement own_placement();

/// True when the ranks on the host of rank `me` are more than the CPUs they may use together
/// (the union of their affinity sets). Ranks bound one per CPU, or fewer ranks than the CPUs
/// they share, are not oversubscribed.
bool oversubscribed(const std::vector<RankPlacement>& ranks, int me);

/// Collective over `comm`: gathers every rank's placement (non-blocking, calling `on_wait`,
/// when given, while it is pending; it may throw to give up) and returns oversubscribed() for
/// this rank.
bool host_oversubscribed(MPI_Comm comm, const std::function<void()>& on_wait = {});

}  // namespace swcc
