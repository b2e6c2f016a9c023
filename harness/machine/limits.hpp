// The machine's own limits, measured at the start of a run over repetitions (median and range):
// core-to-core cache-line round trip, single-thread memcpy bandwidth per size, and the aggregate
// copy bandwidth of all bound cores copying at once per size.
#pragma once

#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "harness/runtime/pinning.hpp"

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

/// Smallest and largest value of a limit over its repetitions (same unit as the limit).
struct Range {
  double min = 0, max = 0;
  bool operator==(const Range&) const = default;
};

/// `threads` bound cores copying at once, each its own source and destination of the size.
struct AggregateCopy {
  int threads = 0;
  double bw_GBps = 0;  ///< median over repetitions of threads x bytes / slowest thread's time
  Range range_GBps;    ///< over the repetitions
  bool operator==(const AggregateCopy&) const = default;
};

struct MachineLimits {
  std::optional<double> cacheline_rtt_us;          ///< median; none on a single-core machine
  Range cacheline_rtt_range_us;                    ///< over the repetitions (when measured)
  int core_a = -1, core_b = -1;                    ///< the CPUs the round trip ran between
  std::map<std::size_t, double> memcpy_GBps;       ///< bytes -> median GB/s (1e9 B/s), one thread
  std::map<std::size_t, Range> memcpy_range_GBps;  ///< bytes -> range over repetitions
  std::map<std::size_t, AggregateCopy> aggregate_memcpy;  ///< bytes -> all bound cores at once
  std::optional<NetworkLimits> network;                   ///< the run's network (several nodes)
};

/// Timed repetitions of every limit (median and range over them); one untimed warm-up first.
inline constexpr int kLimitRepetitions = 7;

/// Median, smallest and largest of samples (not empty).
struct Spread {
  double median = 0;
  Range range;
};
Spread spread_of(const std::vector<double>& samples);

/// Copies of `bytes` per repetition of a copy limit: about 8 MiB copied, 1 to 10000 copies.
int limit_copies_for(std::size_t bytes);

/// Two threads on the first two cores of the binding policy bounce one cache line.
void measure_cacheline(const Pinning& pinning, MachineLimits& out);

/// memcpy bandwidth of one thread (the caller, bound to the first core) for each size.
void measure_memcpy(const Pinning& pinning, const std::vector<std::size_t>& sizes,
                    MachineLimits& out);

/// Aggregate copy bandwidth for each size: `threads` threads (2 or more), thread i bound to the
/// binding policy's core of participant i of `threads`, start together and copy `bytes` from
/// their own source to their own destination; a repetition's bandwidth is threads x bytes x
/// copies / the slowest thread's time. Nothing with fewer than 2 threads.
void measure_aggregate_memcpy(const Pinning& pinning, const std::vector<std::size_t>& sizes,
                              int threads, MachineLimits& out);

/// Bound cores the aggregate copy uses: the cores this process may run on, at most the largest
/// participant count of the run.
int aggregate_threads(const Pinning& pinning, int max_np);

/// {"cacheline_rtt_us", "cacheline_rtt_us_range", "cacheline_cores", "memcpy": [{bytes,
/// bw_GBps, bw_GBps_range}], "aggregate_memcpy": [{bytes, bw_GBps, bw_GBps_range, threads}],
/// "network"?} (see docs/results_format.md).
nlohmann::json to_json(const MachineLimits& limits);
/// The inverse of to_json (to send a node's limits to rank 0); throws on a foreign document.
MachineLimits limits_from_json(const nlohmann::json& j);

}  // namespace comops
