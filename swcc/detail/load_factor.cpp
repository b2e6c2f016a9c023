// load_factor: how loaded this machine is now, from /proc/loadavg and the CPUs this process may
// run on; the watchdog and SwccComm's wait limit are multiplied by it.
#include "swcc/detail/load_factor.hpp"

#include <sched.h>

#include <algorithm>
#include <cstdio>
#include <thread>

namespace swcc {

double load_factor(const std::string& loadavg, int cpus) {
  // "0.52 0.58 0.59 3/467 12345": load averages, then runnable/all scheduling entities
  double load1 = 0;
  long runnable = 0;
  const int got = std::sscanf(loadavg.c_str(), "%lf %*f %*f %ld", &load1, &runnable);
  if (got < 1 || cpus < 1) return 1.0;
  return std::max({1.0, load1 / cpus, static_cast<double>(runnable) / cpus});
}

double load_factor() {
  cpu_set_t set;
  CPU_ZERO(&set);
  int cpus = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;
  if (cpus <= 0) cpus = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::FILE* f = std::fopen("/proc/loadavg", "r");
  if (!f) return 1.0;
  char text[256] = {};
  const bool read = std::fgets(text, sizeof text, f) != nullptr;
  std::fclose(f);
  return read ? load_factor(text, cpus) : 1.0;
}

}  // namespace swcc
