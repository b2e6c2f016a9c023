// The first CPU this process may run on (its affinity mask): compact binding puts participant 0
// there, so a test that pins a foreign load to it lands beside that participant.
#pragma once

#include <sched.h>

namespace comops_test {

inline int first_allowed_cpu() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return 0;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) return c;
  return 0;
}

}  // namespace comops_test
