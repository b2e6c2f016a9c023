// The machine's own limits, measured at the start of a run: core-to-core cache-line round trip
// and single-thread memcpy bandwidth per size.
#pragma once

#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "harness/pinning.hpp"

namespace comops {

/// The network between two nodes, measured with plain MPI_Send/MPI_Recv between their lowest
/// ranks (world rank 0 and node 1's first rank).
struct NetworkLimits {
  int rank_a = 0, rank_b = 0;
  std::string host_a, host_b;
  double rtt_us = 0;                ///< 8-byte round trip, median of repetitions
  std::size_t bw_bytes = 1u << 20;  ///< message size of the bandwidth figure
  double bw_GBps = 0;               ///< one-way: 2 x bw_bytes / round trip (1e9 B/s)
};

struct MachineLimits {
  std::optional<double> cacheline_rtt_us;     ///< none on a single-core machine
  int core_a = -1, core_b = -1;               ///< the CPUs the round trip ran between
  std::map<std::size_t, double> memcpy_GBps;  ///< bytes -> GB/s (1e9 B/s)
  std::optional<NetworkLimits> network;       ///< the run's network (several nodes only)
};

/// Two threads on the first two cores of the binding policy bounce one cache line.
void measure_cacheline(const Pinning& pinning, MachineLimits& out);

/// memcpy bandwidth of one thread (the caller, bound to the first core) for each size.
void measure_memcpy(const Pinning& pinning, const std::vector<std::size_t>& sizes,
                    MachineLimits& out);

/// {"cacheline_rtt_us", "cacheline_cores", "memcpy": [{bytes, bw_GBps}], "network"?}.
nlohmann::json to_json(const MachineLimits& limits);
/// The inverse of to_json (to send a node's limits to rank 0); throws on a foreign document.
MachineLimits limits_from_json(const nlohmann::json& j);

}  // namespace comops
