// Who wins at a glance: per op and table shape, the headline time of every backend side by side,
// the fastest backend without wrong results, its margin over the runner-up, and the memcpy limit.
// Derived from the result rows alone; printed first on stdout and kept in the JSON ("summary").
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "comops/op.hpp"
#include "harness/report/row.hpp"

namespace comops {

/// How the summary is laid out: the op order (ops not listed follow in measurement order) and
/// whether ping-pong columns are labelled by pair (a run on several nodes).
struct SummaryLayout {
  std::vector<OpKind> ops;
  bool several_nodes = false;
};

/// One size (size table) or one participant count (np table).
struct SummaryLine {
  std::size_t key = 0;                         ///< bytes (size table) or np (np table)
  std::vector<std::optional<double>> time_us;  ///< per backend column; none: not measured
  std::vector<std::string> flags;              ///< per backend column: O, C, W
  std::optional<std::size_t> winner;           ///< fastest column without wrong results
  std::optional<std::size_t> runner_up;        ///< the next fastest such column
  std::optional<double> margin;                ///< runner-up time / winner time
  std::optional<double> memcpy_us;  ///< one single-thread memcpy of the size (size / memcpy bw)
};

/// One summary table: an op's size table (at np) or its np table (at bytes).
struct SummaryTable {
  OpKind op = OpKind::kPingpong;
  bool size_table = true;
  int np = 0;                         ///< size table: its participants
  std::size_t bytes = 0;              ///< np table: its size
  AppParams app;                      ///< an application's table: its parameters
  std::vector<std::string> backends;  ///< column labels, in measurement order
  std::vector<SummaryLine> lines;     ///< by key, ascending
};

/// The summary tables of `rows`: per op (layout order), its size table (ops with a size) then
/// its np table, each only when it has rows; an application has one np table per combination of
/// its parameters.
std::vector<SummaryTable> summarize(const std::vector<Row>& rows, const SummaryLayout& layout);

/// The tables as text (see docs/results_format.md and docs/outputs.md), "" when there are none.
std::string render_summary(const std::vector<SummaryTable>& tables);

/// The tables as the JSON "summary" array (see docs/results_format.md).
nlohmann::json summary_json(const std::vector<SummaryTable>& tables);

}  // namespace comops
