// Host oversubscription of a DSM's ranks from their host names and CPU affinity.
#include "swcc/detail/placement.hpp"

#include <unistd.h>

#include <functional>
#include <string>
#include <thread>

namespace swcc {

RankPlacement own_placement() {
  RankPlacement p;
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  p.host = std::hash<std::string>{}(name);
  CPU_ZERO(&p.cpus);
  if (sched_getaffinity(0, sizeof p.cpus, &p.cpus) != 0 || CPU_COUNT(&p.cpus) == 0) {
    const unsigned n = std::max(1u, std::thread::hardware_concurrency());
    for (unsigned c = 0; c < n && c < CPU_SETSIZE; ++c) CPU_SET(c, &p.cpus);
  }
  return p;
}

bool oversubscribed(const std::vector<RankPlacement>& ranks, int me) {
  const std::uint64_t host = ranks[static_cast<std::size_t>(me)].host;
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  int on_host = 0;
  for (const RankPlacement& r : ranks) {
    if (r.host != host) continue;
    ++on_host;
    CPU_OR(&cpus, &cpus, &r.cpus);
  }
  return on_host > CPU_COUNT(&cpus);
}

bool host_oversubscribed(MPI_Comm comm, const std::function<void()>& on_wait) {
  int me = 0, n = 0;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &n);
  const RankPlacement mine = own_placement();
  std::vector<RankPlacement> all(static_cast<std::size_t>(n));
  MPI_Request req;
  MPI_Iallgather(&mine, sizeof mine, MPI_BYTE, all.data(), sizeof mine, MPI_BYTE, comm, &req);
  for (int flag = 0;;) {
    MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    if (flag) break;
    if (on_wait) on_wait();  // a throw leaves the gather pending: the run is failing
    sched_yield();
  }
  return oversubscribed(all, me);
}

}  // namespace swcc
