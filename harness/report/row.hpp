// One result row: a measured point plus what the reporters derive from it (bandwidth, limits,
// oversubscription, noise, table membership).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "harness/machine/limits.hpp"
#include "harness/machine/placement_probe.hpp"
#include "harness/measure/measure.hpp"

namespace comops {

struct Row {
  PointResult point;
  std::optional<double> bw_GBps;            ///< bytes moved / headline time (none for barrier)
  std::optional<double> latency_us;         ///< ping-pong: RTT / 2
  std::optional<double> rate_GBps;          ///< ping-pong: COMOPS rate = size / RTT
  std::optional<double> memcpy_GBps;        ///< the machine's memcpy bandwidth at this size
  std::optional<double> aggregate_GBps;     ///< all bound cores copying at once, at this size
  std::optional<std::string> beyond_limit;  ///< why bw is above its limit (harness/limit_check)
  bool oversubscribed = false;
  std::optional<double> cpu_stall_us;  ///< stall of the timed repetitions (PointResult), us
  double cpu_stall_window_us = 0;      ///< the window it is compared with, us
  /// Stall above kContendedStallShare of its window, or the point's steal (PointResult's
  /// cpu_steal_us) above it (is_steal_contended).
  bool contended = false;
  bool in_size_table = false;  ///< a bandwidth-versus-size point
  bool in_np_table = false;    ///< a time-versus-nprocs point
  /// The placement probe just before and after the point (--placement-probe); none when off,
  /// on one core, or for a variant's row (its job probes its own placement).
  std::optional<PlacementProbe> placement;
};

/// Derives a row. stall_us: how long a participant waited for a CPU during the timed
/// repetitions (none when unreadable); window_us: their wall time (harness/machine/noise.hpp).
/// The steal is the point's own (cpu_steal_us over cpu_steal_window_us).
Row make_row(const PointResult& point, const MachineLimits& limits, bool oversubscribed,
             std::optional<double> stall_us, double window_us, bool in_size_table,
             bool in_np_table);

/// The row as one element of the JSON results array (see docs/results_format.md).
nlohmann::json to_json(const Row& row);

/// "mpi/pingpong/np:2/bytes:8": the point's name in gbench JSON and progress lines.
std::string point_name(const PointResult& point);

/// The row's flags as the tables print them: O oversubscribed, C contended, W wrong results.
std::string flags_of(const Row& row);

/// The row's backend column label: the backend, plus "intra" / "inter" for a ping-pong pair
/// when the run spans several nodes.
std::string row_label(const Row& row, bool several_nodes);

}  // namespace comops
