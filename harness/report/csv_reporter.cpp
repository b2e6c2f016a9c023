// CSV reporter: one line per result row, flushed as it is measured.
#include <fmt/format.h>

#include "harness/ops/app_options.hpp"
#include "harness/ops/op_queries.hpp"
#include "harness/report/reporter.hpp"
#include "harness/runtime/placement.hpp"
#include "harness/util/output_file.hpp"
#include "harness/util/stats.hpp"

namespace comops {
namespace {

constexpr const char* kHeader =
    "backend,op,np,bytes,iterations,repetitions,time_min_us,time_avg_us,time_max_us,"
    "time_rep_min_us,time_rep_max_us,bw_GBps,latency_us,rate_GBps,memcpy_GBps,wrong,"
    "oversubscribed,contended,cpu_stall_us,cores,nodes,hosts,pair,aggregate_GBps,beyond_limit,"
    "cpu_stall_window_us,p50_us,p90_us,p99_us,pmax_us,app,cpu_steal_us,cpu_steal_window_us";

std::string num(const std::optional<double>& v) { return v ? fmt::format("{:.6g}", *v) : ""; }

// One percentile of a point, empty when its calls were not timed alone.
std::string percentile(const std::optional<Percentiles>& q, double Percentiles::*which) {
  return q ? num((*q).*which) : "";
}

// A text field: empty when absent, else quoted with its quotes doubled (RFC 4180).
std::string text(const std::optional<std::string>& v) {
  if (!v) return "";
  std::string s = "\"";
  for (char c : *v) s += c == '"' ? std::string("\"\"") : std::string(1, c);
  return s + "\"";
}

class CsvReporter final : public Reporter {
 public:
  explicit CsvReporter(const std::string& path) : out_(path) {
    out_.write(std::string(kHeader) + "\n");
  }
  void add(const Row& r) override {
    const auto& p = r.point;
    const std::optional<Percentiles>& q = p.percentiles_us;
    out_.write(fmt::format(
        "{},{},{},{},{},{},{:.6g},{:.6g},{:.6g},{:.6g},{:.6g},{},{},{},{},{},{},{},{},\"{}"
        "\",{},\"{}\",{},{},{},{:.6g},{},{},{},{},{},{},{}\n",
        p.backend, op_name(p.args.op), p.args.np, p.args.bytes, p.iterations, p.repetitions,
        p.time_min_us, p.time_avg_us, p.time_max_us, min_of(p.rep_max_us), max_of(p.rep_max_us),
        num(r.bw_GBps), num(r.latency_us), num(r.rate_GBps), num(r.memcpy_GBps), p.wrong,
        r.oversubscribed ? 1 : 0, r.contended ? 1 : 0, num(r.cpu_stall_us), fmt::join(p.cores, " "),
        p.nodes, fmt::join(p.hosts, " "), pair_name(p.pair), num(r.aggregate_GBps),
        text(r.beyond_limit), r.cpu_stall_window_us, percentile(q, &Percentiles::p50),
        percentile(q, &Percentiles::p90), percentile(q, &Percentiles::p99),
        percentile(q, &Percentiles::max),
        p.args.app.empty() ? "" : text(app_params_text(p.args.app)), num(p.cpu_steal_us),
        num(p.cpu_steal_us ? std::optional<double>(p.cpu_steal_window_us) : std::nullopt)));
  }

 private:
  StreamFile out_;
};

}  // namespace

std::unique_ptr<Reporter> make_csv_reporter(const std::string& path) {
  return std::make_unique<CsvReporter>(path);
}

}  // namespace comops
