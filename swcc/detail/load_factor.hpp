// load_factor: how many times longer than on an idle machine a wait may take now. The engine's
// watchdog and SwccComm's wait limit are multiplied by it.
#pragma once

#include <string>

namespace swcc {

/// How many times longer than on an idle machine a wait may take now: the largest of 1, the
/// threads ready to run and the 1-minute load average, each per CPU this process may run on
/// (/proc/loadavg; 1 where it cannot be read). The watchdog and SwccComm's wait limit are
/// multiplied by it.
double load_factor();
/// The same from the text of /proc/loadavg and a CPU count; 1 when the text does not parse.
double load_factor(const std::string& loadavg, int cpus);

}  // namespace swcc
