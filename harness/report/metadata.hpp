// The JSON context of a run: who, where, what, with which options, on which machine.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "comops/op.hpp"
#include "harness/machine/limits.hpp"
#include "harness/machine/node_limits.hpp"
#include "harness/plan/config.hpp"
#include "harness/runtime/nodes.hpp"
#include "harness/runtime/pinning.hpp"

namespace comops {

/// nodes/facts: every node of the run and what its lowest rank found there (facts[0] is rank 0's
/// node; `limits` is node 0's limits with the network row).
nlohmann::json run_context(const Config& config, int world_size, const Pinning& pinning,
                           const MachineLimits& limits, std::optional<double> idle_share,
                           bool psi_available,
                           const std::vector<std::unique_ptr<Backend>>& backends,
                           const NodeMap& nodes, const std::vector<NodeFacts>& facts);

}  // namespace comops
