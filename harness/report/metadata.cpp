// Run context for the JSON output (date, host, versions, options, topology, limits, backends).
#include "harness/report/metadata.hpp"

#include <unistd.h>

#include <chrono>
#include <ctime>

#include "harness/machine/noise.hpp"
#include "harness/machine/steal.hpp"
#include "harness/ops/op_queries.hpp"
#include "harness/runtime/world.hpp"
#include "harness/version.hpp"

namespace comops {
namespace {

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace

nlohmann::json run_context(const Config& c, int world_size, const Pinning& pinning,
                           const MachineLimits& limits, std::optional<double> idle_share,
                           bool psi_available,
                           const std::vector<std::unique_ptr<Backend>>& backends,
                           const NodeMap& nodes, const std::vector<NodeFacts>& facts) {
  nlohmann::json node_list = nlohmann::json::array();
  for (int n = 0; n < nodes.nodes(); ++n) {
    const auto i = static_cast<std::size_t>(n);
    nlohmann::json node = {
        {"node", n}, {"host", nodes.host[i]}, {"cores", nodes.cores[i]}, {"ranks", nodes.ranks[i]}};
    if (i < facts.size()) {
      node["topology"] = facts[i].topology;
      node["limits"] = to_json(facts[i].limits);
    }
    node_list.push_back(node);
  }
  nlohmann::json ops = nlohmann::json::array();
  for (OpKind op : c.ops) ops.push_back(std::string(op_name(op)));
  nlohmann::json backend_facts = nlohmann::json::object();
  for (const auto& b : backends) backend_facts[b->label()] = b->context();
  const std::optional<std::string> steal = steal_source();
  auto opt_int = [](int v, bool given) {
    return given ? nlohmann::json(v) : nlohmann::json(nullptr);
  };
  return {
      {"date", utc_now()},
      {"host", nodes.host.at(0)},
      {"git_sha", kGitSha},
      {"comops_version", kVersion},
      {"mpi_library", World::library_version()},
      {"compiler", std::string("GCC ") + __VERSION__},
      {"command_line", c.command_line},
      {"options",
       {{"backends", c.backends},
        {"ops", ops},
        {"np", c.np_list},
        {"sizes_bytes", c.sizes},
        {"np_bytes", c.np_bytes},
        {"size_np", c.size_np},
        {"iterations", opt_int(c.measure.iterations, c.measure.iterations > 0)},
        {"warmup", opt_int(c.measure.warmup, c.measure.warmup >= 0)},
        {"repetitions", c.measure.repetitions},
        {"seed", c.measure.seed},
        {"sync", sync_name(c.measure.sync)},
        {"sync_method", sync_description(c.measure.sync)},
        {"percentiles", c.measure.percentiles},
        {"bind", bind_policy_name(c.bind)},
        {"placement", placement_name(c.placement)},
        {"pair", c.pair},
        {"window", c.window}}},
      {"topology", pinning.summary()},
      {"world_size", world_size},
      {"nodes", node_list},
      {"cpu_idle_share", idle_share ? nlohmann::json(*idle_share) : nlohmann::json(nullptr)},
      {"psi_available", psi_available},
      {"cpu_stall_source", stall_source() == StallSource::kNone
                               ? nlohmann::json(nullptr)
                               : nlohmann::json(stall_source_name(stall_source()))},
      {"cpu_steal_source", steal ? nlohmann::json(*steal) : nlohmann::json(nullptr)},
      {"oversubscribed", false},
      {"bindings", nlohmann::json::object()},
      {"limits", to_json(limits)},
      {"backends", backend_facts},
  };
}

}  // namespace comops
