// The one line above the tables that says the machine was busy (or oversubscribed), so that a
// reader does not have to infer it from the C and O flags of every row.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/report/row.hpp"

namespace comops {

/// Below this idle share before the run the machine counts as busy.
inline constexpr double kBusyIdleShare = 0.75;

/// "comops: note: ..." lines (each ending in '\n') when the idle share before the run was below
/// kBusyIdleShare or a point was contended, and when a point was oversubscribed; "" otherwise.
std::string busy_note(const std::vector<Row>& rows, std::optional<double> idle_share);

}  // namespace comops
