// Reporters receive every result row as soon as it is measured and keep it on disk or stdout.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/config.hpp"
#include "harness/limits.hpp"
#include "harness/nodes.hpp"
#include "harness/output_file.hpp"
#include "harness/row.hpp"

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
/// The JSON document of harness/results_format.md, rewritten after every row.
std::unique_ptr<Reporter> make_json_reporter(const std::string& path, nlohmann::json context);
/// Google Benchmark JSON (one entry per repetition plus mean/median/stddev), rewritten per row.
std::unique_ptr<Reporter> make_gbench_reporter(const std::string& path,
                                               const nlohmann::json& context);
/// The readable tables, printed to stdout (and written to path if not empty) at the end; on
/// several nodes they say which host each node is.
std::unique_ptr<Reporter> make_table_reporter(const std::string& path, const Config& config,
                                              const MachineLimits& limits, const NodeMap& nodes);

}  // namespace comops
