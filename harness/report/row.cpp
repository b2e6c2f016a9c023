// Derived quantities of a result row and its JSON form.
#include "harness/report/row.hpp"

#include <fmt/format.h>

#include "harness/machine/noise.hpp"
#include "harness/machine/steal.hpp"
#include "harness/ops/app_options.hpp"
#include "harness/ops/op_queries.hpp"
#include "harness/report/limit_check.hpp"
#include "harness/util/stats.hpp"

namespace comops {

Row make_row(const PointResult& p, const MachineLimits& limits, bool oversubscribed,
             std::optional<double> stall_us, double window_us, bool in_size_table,
             bool in_np_table) {
  Row r;
  r.point = p;
  const double t = p.time_max_us;
  if (op_moves_data(p.args.op) && t > 0) r.bw_GBps = op_bytes_moved(p.args) / t / 1e3;
  if (op_descriptor(p.args.op).pingpong() && t > 0) {
    r.latency_us = t / 2;
    r.rate_GBps = static_cast<double>(p.args.bytes) / t / 1e3;
  }
  if (auto it = limits.memcpy_GBps.find(p.args.bytes); it != limits.memcpy_GBps.end())
    r.memcpy_GBps = it->second;
  if (auto it = limits.aggregate_memcpy.find(p.args.bytes); it != limits.aggregate_memcpy.end())
    r.aggregate_GBps = it->second.bw_GBps;
  if (r.bw_GBps) r.beyond_limit = beyond_limit(p, *r.bw_GBps, limits);
  r.oversubscribed = oversubscribed;
  r.cpu_stall_us = stall_us;
  r.cpu_stall_window_us = window_us;
  r.contended = is_contended(stall_us, window_us) ||
                is_steal_contended(p.cpu_steal_us, p.cpu_steal_window_us);
  r.in_size_table = in_size_table;
  r.in_np_table = in_np_table;
  return r;
}

nlohmann::json to_json(const Row& r) {
  const auto& p = r.point;
  auto opt = [](const std::optional<double>& v) -> nlohmann::json {
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
  };
  nlohmann::json tables = nlohmann::json::array();
  if (r.in_size_table) tables.push_back("size");
  if (r.in_np_table) tables.push_back("np");
  nlohmann::json j = {
      {"backend", p.backend},
      {"op", std::string(op_name(p.args.op))},
      {"np", p.args.np},
      {"bytes", p.args.bytes},
      {"iterations", p.iterations},
      {"warmup", p.warmup},
      {"repetitions", p.repetitions},
      {"time_us", {{"min", p.time_min_us}, {"avg", p.time_avg_us}, {"max", p.time_max_us}}},
      {"time_us_reps",
       {{"median", median(p.rep_max_us)},
        {"min", min_of(p.rep_max_us)},
        {"max", max_of(p.rep_max_us)}}},
      {"rep_times_us", p.rep_max_us},
      {"bw_GBps", opt(r.bw_GBps)},
      {"memcpy_GBps", opt(r.memcpy_GBps)},
      {"aggregate_GBps", opt(r.aggregate_GBps)},
      {"beyond_limit", r.beyond_limit ? nlohmann::json(*r.beyond_limit) : nlohmann::json(nullptr)},
      {"wrong", p.wrong},
      {"oversubscribed", r.oversubscribed},
      {"cores", p.cores},
      {"hosts", p.hosts},
      {"nodes", p.nodes},
      {"cpu_stall_us", opt(r.cpu_stall_us)},
      {"cpu_stall_window_us",
       r.cpu_stall_us ? nlohmann::json(r.cpu_stall_window_us) : nlohmann::json(nullptr)},
      {"cpu_steal_us", opt(p.cpu_steal_us)},
      {"cpu_steal_window_us",
       p.cpu_steal_us ? nlohmann::json(p.cpu_steal_window_us) : nlohmann::json(nullptr)},
      {"contended", r.contended},
      {"placement", to_json(r.placement)},
      {"tables", tables},
  };
  if (op_is_pair(p.args.op)) j["pair"] = pair_name(p.pair == Pair::kNone ? Pair::kIntra : p.pair);
  if (op_descriptor(p.args.op).pingpong()) {
    j["latency_us"] = opt(r.latency_us);
    j["rate_GBps"] = opt(r.rate_GBps);
  }
  if (op_descriptor(p.args.op).windowed()) j["window"] = p.args.window;
  if (op_is_app(p.args.op)) {
    nlohmann::json app = nlohmann::json::object();
    for (const auto& [name, value] : p.args.app) app[name] = value;
    j["app"] = app;
  }
  if (p.percentiles_us) {
    const Percentiles& q = *p.percentiles_us;
    j["percentiles_us"] = {{"p50", q.p50}, {"p90", q.p90}, {"p99", q.p99}, {"max", q.max}};
  }
  if (!p.counters.empty()) {
    nlohmann::json c = nlohmann::json::object();
    for (const auto& [name, value] : p.counters) c[name] = value;
    j["counters"] = c;
  }
  return j;
}

std::string point_name(const PointResult& p) {
  // Intra-node ping-pong keeps the name it had before pairs existed; an application names its
  // parameters instead of a size ("swcc-64/matmul/np:4/n:256").
  if (op_is_app(p.args.op)) {
    std::string params;
    for (const auto& [name, value] : p.args.app) params += fmt::format("/{}:{}", name, value);
    return fmt::format("{}/{}/np:{}{}", p.backend, op_name(p.args.op), p.args.np, params);
  }
  return fmt::format("{}/{}/np:{}/bytes:{}{}", p.backend, op_name(p.args.op), p.args.np,
                     p.args.bytes, p.pair == Pair::kInter ? "/pair:inter" : "");
}

std::string flags_of(const Row& r) {
  std::string f;
  if (r.oversubscribed) f += 'O';
  if (r.contended) f += 'C';
  if (r.point.wrong > 0) f += 'W';
  if (r.beyond_limit) f += 'L';
  return f;
}

std::string row_label(const Row& r, bool several_nodes) {
  const auto& p = r.point;
  if (several_nodes && p.pair != Pair::kNone) return p.backend + " " + pair_name(p.pair);
  return p.backend;
}

}  // namespace comops
