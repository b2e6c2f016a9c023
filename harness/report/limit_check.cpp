// The copy ceiling of a point and the explanation of a point beyond it.
#include "harness/report/limit_check.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "harness/ops/op_queries.hpp"

namespace comops {

std::optional<BwCeiling> bw_ceiling(const PointResult& p, const MachineLimits& limits) {
  const Args& a = p.args;
  if (!op_moves_data(a.op) || a.bytes == 0 || p.nodes > 1) return std::nullopt;
  const int shared_by = op_descriptor(a.op).ceiling_shared_by(a);
  if (shared_by < 1 || a.np < 1) return std::nullopt;
  const auto single = limits.memcpy_GBps.find(a.bytes);
  if (single == limits.memcpy_GBps.end()) return std::nullopt;
  const auto range = limits.memcpy_range_GBps.find(a.bytes);
  const double one_core =
      range == limits.memcpy_range_GBps.end() ? single->second : range->second.max;
  BwCeiling c;
  c.cores = a.np;
  c.copy_GBps = one_core;
  double copy = a.np * one_core;
  if (const auto agg = limits.aggregate_memcpy.find(a.bytes);
      agg != limits.aggregate_memcpy.end() && agg->second.range_GBps.max < copy) {
    copy = agg->second.range_GBps.max;
    c.aggregate = true;
    c.cores = agg->second.threads;
    c.copy_GBps = copy;
  }
  c.shared_by = shared_by;
  c.bw_GBps = copy / shared_by;
  return c;
}

std::optional<std::string> beyond_limit(const PointResult& p, double bw_GBps,
                                        const MachineLimits& limits) {
  const auto c = bw_ceiling(p, limits);
  if (!c || bw_GBps <= c->bw_GBps) return std::nullopt;
  std::string what;
  if (!c->aggregate)
    what = fmt::format("{} participants copying at once at the single-copy memcpy {:.3g} GB/s each",
                       c->cores, c->copy_GBps);
  else if (c->shared_by > 1)
    what = fmt::format("the aggregate copy bandwidth {:.3g} GB/s of {} cores copying at once",
                       c->copy_GBps, c->cores);
  else
    what = fmt::format("the aggregate copy bandwidth of {} cores copying at once", c->cores);
  if (c->shared_by > 1) what += fmt::format(" shared by {} receivers' copies", c->shared_by);
  return fmt::format(
      "{:.3g} GB/s is above its limit {:.3g} GB/s, {}; its data likely stays in cache between "
      "iterations",
      bw_GBps, c->bw_GBps, what);
}

}  // namespace comops
