// Reporters receive every result row as soon as it is measured and keep it on disk or stdout.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "harness/machine/limits.hpp"
#include "harness/plan/config.hpp"
#include "harness/report/row.hpp"
#include "harness/report/summary.hpp"
#include "harness/runtime/nodes.hpp"
#include "harness/util/output_file.hpp"

namespace comops {

class Reporter {
 public:
  virtual ~Reporter() = default;
  /// Called once per row, in measurement order; the row is on disk when it returns (in a device
  /// or FIFO, documents are written whole by finish()). Throws RuntimeError when it cannot write.
  virtual void add(const Row& row) = 0;
  /// Called once at the end, also after a failure (what was measured is still reported).
  virtual void finish() {}
};

/// CSV rows, appended and flushed one by one.
std::unique_ptr<Reporter> make_csv_reporter(const std::string& path);
/// The JSON document of docs/results_format.md, rewritten after every row; its "summary"
/// view (harness/report/summary.hpp) is laid out as `layout` says.
std::unique_ptr<Reporter> make_json_reporter(const std::string& path, nlohmann::json context,
                                             const SummaryLayout& layout = {});
/// Google Benchmark JSON (one entry per repetition plus mean/median/stddev), rewritten per row.
std::unique_ptr<Reporter> make_gbench_reporter(const std::string& path,
                                               const nlohmann::json& context);
/// The final report, printed to stdout (and written to path if not empty) at the end: the busy
/// note (idle_share: the CPU idle share before the run), the who-wins summary, then the readable
/// tables; on several nodes they say which host each node is.
std::unique_ptr<Reporter> make_table_reporter(const std::string& path, const Config& config,
                                              const MachineLimits& limits, const NodeMap& nodes,
                                              std::optional<double> idle_share = std::nullopt);
/// Rows as they finish: live_line() of each row on stdout, flushed at once, after live_header()
/// whenever the op changes; a blank line at the end.
std::unique_ptr<Reporter> make_live_reporter(bool several_nodes, Sync sync);
/// The header line of the rows printed as they finish, for `op`'s rows timed with `sync`; it
/// ends with the method, "sync=none" or "sync=barrier".
std::string live_header(OpKind op, Sync sync);
/// One row as it is printed when its point finishes.
std::string live_line(const Row& row, bool several_nodes);

}  // namespace comops
