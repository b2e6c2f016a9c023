// The placement probe beside every point: a short cache-line round trip between the cores of the
// point's first two participants on rank 0's node, just before and just after the point. On a VM
// whose virtual CPUs move between host cores (one pair sharing a cache, the next not), it tells
// which placement a point ran in; the A/B judge and the history compare points only within one
// placement mode (docs/regression.md).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <utility>

#include "harness/runtime/pinning.hpp"
#include "harness/runtime/placement.hpp"

namespace comops {

/// One probe: the fastest of kProbeRepetitions repetitions of kProbeRounds round trips, after one
/// untimed warm-up repetition (about 0.3 ms per probe at 0.05 us a round trip, 3 ms at 0.5 us).
/// The fastest, not the median: a thread still spinning on one of the cores (an OpenMP team
/// that has just ended) only slows a repetition, and the placement bounds the fastest.
inline constexpr int kProbeRounds = 1000;
inline constexpr int kProbeRepetitions = 5;

/// A point's probes, in microseconds per round trip, and the cores they ran between.
struct PlacementProbe {
  double before_us = 0;
  double after_us = 0;
  int core_a = -1, core_b = -1;  ///< -1: unbound (--bind=none)
  bool operator==(const PlacementProbe&) const = default;
};

/// The logical cores the probe of a point placed by `placement` runs between: those of its
/// participants 0 and 1 on node 0 when it has two there, else those of a two-participant point
/// (the same machine placement, the pair of cores its ranks sit on). None on one core.
std::optional<std::pair<int, int>> probe_cores(const Pinning& pinning, const Placement& placement);

/// One probe between `cores` from the calling thread (and a partner thread): microseconds per
/// round trip; `cpu_a`/`cpu_b` get the cores the threads were bound to (-1: unbound).
double probe_round_trip_us(const Pinning& pinning, std::pair<int, int> cores, int& cpu_a,
                           int& cpu_b);

/// {"before_us": ..., "after_us": ..., "cores": [a, b]}, or null for none.
nlohmann::json to_json(const std::optional<PlacementProbe>& probe);

}  // namespace comops
