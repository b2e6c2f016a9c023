// Which machine limit bounds a result row's bandwidth, and whether the row is beyond it.
#pragma once

#include <optional>
#include <string>

#include "harness/machine/limits.hpp"
#include "harness/measure/measure.hpp"

namespace comops {

/// The most bandwidth (as the row's bw_GBps counts it) the machine's copy limits allow a point.
///
/// Every participant of a point may copy at the same time (shm-direct splits a broadcast's and a
/// large ping-pong's copy between sender and receiver; MPI's large collectives scatter and
/// gather pieces), so the copy ceiling of a point with np participants is np cores copying at
/// once: the smaller of np x the single-copy memcpy and the aggregate copy of all bound cores.
/// What the op must copy, against what its bandwidth counts: a ping-pong copies each way in
/// turn (2 x size per round trip, its bandwidth's 2 x size); gather and scatter (np-1) blocks
/// (their (np-1) x size); a reduction reads every participant's vector and writes the result
/// (at least one copy of its size); a broadcast writes size bytes into each of its np-1
/// receivers while its bandwidth counts size once, so the ceiling is shared by np-1 copies.
/// The tops of the limits' ranges are used, so a limit's own noise flags nothing.
struct BwCeiling {
  double bw_GBps = 0;      ///< the ceiling
  bool aggregate = false;  ///< the aggregate copy sets it (else np x single-copy memcpy)
  int cores = 0;           ///< cores copying at once behind it
  double copy_GBps = 0;    ///< the copy figure it comes from (aggregate or single memcpy)
  int shared_by = 1;       ///< copies sharing it (a broadcast's receivers)
};

/// None when there is nothing to bound: no data (barrier), a broadcast without receivers,
/// participants on several nodes (the limits are one node's), or no memcpy figure at its size.
std::optional<BwCeiling> bw_ceiling(const PointResult& point, const MachineLimits& limits);

/// Null when the point's bandwidth is within its ceiling (or has none); else the explanation a
/// row's beyond_limit carries, e.g. "65.5 GB/s is above its limit 40.2 GB/s, the aggregate copy
/// bandwidth of 2 cores copying at once; its data likely stays in cache between iterations".
std::optional<std::string> beyond_limit(const PointResult& point, double bw_GBps,
                                        const MachineLimits& limits);

}  // namespace comops
