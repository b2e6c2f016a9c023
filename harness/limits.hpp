// The machine's own limits, measured at the start of a run: core-to-core cache-line round trip
// and single-thread memcpy bandwidth per size.
#pragma once

#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "harness/pinning.hpp"

namespace comops {

struct MachineLimits {
  std::optional<double> cacheline_rtt_us;     ///< none on a single-core machine
  int core_a = -1, core_b = -1;               ///< the CPUs the round trip ran between
  std::map<std::size_t, double> memcpy_GBps;  ///< bytes -> GB/s (1e9 B/s)
};

/// Two threads on the first two cores of the binding policy bounce one cache line.
void measure_cacheline(const Pinning& pinning, MachineLimits& out);

/// memcpy bandwidth of one thread (the caller, bound to the first core) for each size.
void measure_memcpy(const Pinning& pinning, const std::vector<std::size_t>& sizes,
                    MachineLimits& out);

nlohmann::json to_json(const MachineLimits& limits);

}  // namespace comops
