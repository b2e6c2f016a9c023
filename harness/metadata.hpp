// The JSON context of a run: who, where, what, with which options, on which machine.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "comops/op.hpp"
#include "harness/config.hpp"
#include "harness/limits.hpp"
#include "harness/pinning.hpp"

namespace comops {

nlohmann::json run_context(const Config& config, int world_size, const Pinning& pinning,
                           const MachineLimits& limits, std::optional<double> idle_share,
                           bool psi_available,
                           const std::vector<std::unique_ptr<Backend>>& backends);

}  // namespace comops
