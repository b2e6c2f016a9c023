// Google Benchmark JSON reporter, so that Google Benchmark's tools/compare.py reads comops runs.
// Times are in nanoseconds: compare.py prints whole time units, so microseconds would show an 8 B
// ping-pong as "1 -> 1".
#include <cmath>

#include "harness/ops/op_queries.hpp"
#include "harness/report/reporter.hpp"
#include "harness/util/output_file.hpp"
#include "harness/util/stats.hpp"

namespace comops {
namespace {

class GbenchReporter final : public Reporter {
 public:
  GbenchReporter(const std::string& path, const nlohmann::json& ctx) : file_(path) {
    const auto& topo = ctx.value("topology", nlohmann::json::object());
    // How the calls were timed (--sync): every entry's label, and the context, say it; the names
    // stay backend/op/np:N/bytes:N, which compare tools match on.
    const auto& options = ctx.value("options", nlohmann::json::object());
    sync_ = options.value("sync", "");
    doc_ = {{"context",
             {{"date", ctx.value("date", "")},
              {"host_name", ctx.value("host", "")},
              {"executable", "comops"},
              {"num_cpus", topo.value("pus", 0)},
              {"mhz_per_cpu", 0},
              {"cpu_scaling_enabled", false},
              {"caches", nlohmann::json::array()},
              {"library_build_type", "release"},
              {"comops_version", ctx.value("comops_version", "")},
              {"git_sha", ctx.value("git_sha", "")},
              {"comops_sync", sync_}}},
            {"benchmarks", nlohmann::json::array()}};
    file_.update(doc_.dump(2) + "\n");
  }

  void add(const Row& r) override {
    const auto& p = r.point;
    const std::string name = point_name(p);
    const double moved = op_bytes_moved(p.args);
    auto entry = [&](const std::string& run_type, double t_us, bool with_rate = true) {
      const double t_ns = t_us * 1e3;
      nlohmann::json e = {
          {"name", name},     {"family_index", family_},    {"per_family_instance_index", 0},
          {"run_name", name}, {"run_type", run_type},       {"repetitions", p.repetitions},
          {"threads", 1},     {"iterations", p.iterations}, {"real_time", t_ns},
          {"cpu_time", t_ns}, {"time_unit", "ns"}};
      if (!sync_.empty()) e["label"] = "sync=" + sync_;
      if (with_rate && moved > 0 && t_us > 0) e["bytes_per_second"] = moved / (t_us * 1e-6);
      return e;
    };
    auto& list = doc_["benchmarks"];
    for (std::size_t i = 0; i < p.rep_max_us.size(); ++i) {
      auto e = entry("iteration", p.rep_max_us[i]);
      e["repetition_index"] = i;
      list.push_back(e);
    }
    double mean = 0;
    for (double t : p.rep_max_us) mean += t;
    mean /= static_cast<double>(std::max<std::size_t>(p.rep_max_us.size(), 1));
    double var = 0;
    for (double t : p.rep_max_us) var += (t - mean) * (t - mean);
    const double stddev =
        p.rep_max_us.size() > 1 ? std::sqrt(var / static_cast<double>(p.rep_max_us.size() - 1)) : 0;
    const std::pair<const char*, double> aggregates[] = {
        {"mean", mean}, {"median", median(p.rep_max_us)}, {"stddev", stddev}};
    for (const auto& [agg, value] : aggregates) {
      // A spread of times is not a rate: the stddev entry carries no bytes_per_second.
      auto e = entry("aggregate", value, std::string(agg) != "stddev");
      e["name"] = name + "_" + agg;
      e["aggregate_name"] = agg;
      list.push_back(e);
    }
    ++family_;
    file_.update(doc_.dump(2) + "\n");
  }
  void finish() override { file_.finish(); }

 private:
  DocumentFile file_;
  nlohmann::json doc_;
  std::string sync_;  ///< options.sync of the context: none, barrier ("" when absent)
  int family_ = 0;
};

}  // namespace

std::unique_ptr<Reporter> make_gbench_reporter(const std::string& path,
                                               const nlohmann::json& context) {
  return std::make_unique<GbenchReporter>(path, context);
}

}  // namespace comops
