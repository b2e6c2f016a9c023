// PointResult <-> JSON, field by field (enums as their numbers: the same binary reads them back).
#include "harness/measure/point_result_json.hpp"

#include <fmt/format.h>

namespace comops {

nlohmann::json point_result_to_json(const PointResult& p) {
  nlohmann::json j = {{"backend", p.backend},
                      {"op", static_cast<int>(p.args.op)},
                      {"np", p.args.np},
                      {"bytes", p.args.bytes},
                      {"count", p.args.count},
                      {"root", p.args.root},
                      {"iterations", p.iterations},
                      {"warmup", p.warmup},
                      {"repetitions", p.repetitions},
                      {"time_min_us", p.time_min_us},
                      {"time_avg_us", p.time_avg_us},
                      {"time_max_us", p.time_max_us},
                      {"rep_max_us", p.rep_max_us},
                      {"wrong", p.wrong},
                      {"cores", p.cores},
                      {"hosts", p.hosts},
                      {"nodes", p.nodes},
                      {"pair", static_cast<int>(p.pair)},
                      {"counters", p.counters},
                      {"cpu_stall_window_us", p.cpu_stall_window_us},
                      {"cpu_steal_window_us", p.cpu_steal_window_us},
                      {"app", p.args.app}};
  if (p.percentiles_us) {
    const Percentiles& q = *p.percentiles_us;
    j["percentiles_us"] = {q.p50, q.p90, q.p99, q.max};
  }
  if (p.cpu_stall_us) j["cpu_stall_us"] = *p.cpu_stall_us;
  if (p.cpu_steal_us) j["cpu_steal_us"] = *p.cpu_steal_us;
  return j;
}

PointResult point_result_from_json(const nlohmann::json& j) {
  try {
    PointResult p;
    p.backend = j.at("backend").get<std::string>();
    p.args.op = static_cast<OpKind>(j.at("op").get<int>());
    p.args.np = j.at("np").get<int>();
    p.args.bytes = j.at("bytes").get<std::size_t>();
    p.args.count = j.at("count").get<std::size_t>();
    p.args.root = j.at("root").get<int>();
    p.iterations = j.at("iterations").get<int>();
    p.warmup = j.at("warmup").get<int>();
    p.repetitions = j.at("repetitions").get<int>();
    p.time_min_us = j.at("time_min_us").get<double>();
    p.time_avg_us = j.at("time_avg_us").get<double>();
    p.time_max_us = j.at("time_max_us").get<double>();
    p.rep_max_us = j.at("rep_max_us").get<std::vector<double>>();
    p.wrong = j.at("wrong").get<std::int64_t>();
    p.cores = j.at("cores").get<std::vector<int>>();
    p.hosts = j.at("hosts").get<std::vector<std::string>>();
    p.nodes = j.at("nodes").get<int>();
    p.pair = static_cast<Pair>(j.at("pair").get<int>());
    p.counters = j.at("counters").get<Counters>();
    p.cpu_stall_window_us = j.at("cpu_stall_window_us").get<double>();
    p.cpu_steal_window_us = j.at("cpu_steal_window_us").get<double>();
    p.args.app = j.at("app").get<AppParams>();
    if (j.contains("percentiles_us")) {
      const auto q = j.at("percentiles_us").get<std::vector<double>>();
      if (q.size() != 4) throw RuntimeError("percentiles_us needs 4 values");
      p.percentiles_us = Percentiles{q[0], q[1], q[2], q[3]};
    }
    if (j.contains("cpu_stall_us")) p.cpu_stall_us = j.at("cpu_stall_us").get<double>();
    if (j.contains("cpu_steal_us")) p.cpu_steal_us = j.at("cpu_steal_us").get<double>();
    return p;
  } catch (const nlohmann::json::exception& e) {
    throw RuntimeError(fmt::format("a measured point does not read back: {}", e.what()));
  }
}

}  // namespace comops
