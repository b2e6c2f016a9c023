// A PointResult as JSON and back: how a variant's job (harness/launch/variant_job.hpp) hands its
// measured points to the job that reports them. An internal format between two runs of the same
// comops binary, not a results format.
#pragma once

#include <nlohmann/json.hpp>

#include "harness/measure/measure.hpp"

namespace comops {

nlohmann::json point_result_to_json(const PointResult& point);

/// Throws RuntimeError when `j` is not what point_result_to_json wrote.
PointResult point_result_from_json(const nlohmann::json& j);

}  // namespace comops
