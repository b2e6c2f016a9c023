// The placement probe beside every point: the cores it runs between, one probe, its JSON form.
#include "harness/machine/placement_probe.hpp"

#include "harness/machine/cacheline.hpp"
#include "harness/util/stats.hpp"

namespace comops {

std::optional<std::pair<int, int>> probe_cores(const Pinning& pinning,
                                               const Placement& placement) {
  if (pinning.cores() < 2) return std::nullopt;
  int on_node0 = 0;
  for (int node : placement.node) on_node0 += node == 0 ? 1 : 0;
  const int np = on_node0 >= 2 ? on_node0 : 2;
  const int a = pinning.core_for(0, np), b = pinning.core_for(1, np);
  // --bind=none: the threads are left unbound, as the point's participants are.
  if (a < 0 || b < 0) return std::make_pair(-1, -1);
  return std::make_pair(a, b);
}

double probe_round_trip_us(const Pinning& pinning, std::pair<int, int> cores, int& cpu_a,
                           int& cpu_b) {
  const RoundTrips trips =
      cacheline_round_trips(pinning, cores.first, cores.second, kProbeRounds, kProbeRepetitions);
  cpu_a = trips.cpu_a;
  cpu_b = trips.cpu_b;
  return min_of(trips.us);
}

nlohmann::json to_json(const std::optional<PlacementProbe>& probe) {
  if (!probe) return nullptr;
  return {{"before_us", probe->before_us},
          {"after_us", probe->after_us},
          {"cores", {probe->core_a, probe->core_b}}};
}

}  // namespace comops
