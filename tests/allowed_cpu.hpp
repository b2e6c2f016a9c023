// The CPUs this process may run on (its affinity mask), and the first of them: compact binding
// puts participant 0 there, so a test that pins a foreign load to it lands beside that
// participant.
#pragma once

#include <sched.h>

#include <vector>

namespace comops_test {

/// Every CPU of the calling thread's affinity mask, ascending; empty when unreadable.
inline std::vector<int> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  return cpus;
}

inline int first_allowed_cpu() {
  const std::vector<int> cpus = allowed_cpus();
  return cpus.empty() ? 0 : cpus.front();
}

}  // namespace comops_test
