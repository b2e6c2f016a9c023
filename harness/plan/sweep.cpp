// Building the list of points before the run.
#include "harness/plan/sweep.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "harness/ops/op_binder.hpp"
#include "harness/ops/op_queries.hpp"

namespace comops {

std::vector<Point> build_sweep(const Config& c,
                               const std::vector<std::unique_ptr<Backend>>& backends,
                               std::vector<std::string>* skipped) {
  std::vector<Point> points;
  for (std::size_t b = 0; b < backends.size(); ++b) {
    for (OpKind op : c.ops) {
      if (!bind_op(*backends[b], op)) {
        if (skipped)
          skipped->push_back(
              fmt::format("{}: {} is not implemented", backends[b]->label(), op_name(op)));
        continue;
      }
      std::vector<Pair> pairs{Pair::kNone};
      if (op_is_pair(op)) {
        pairs.clear();
        for (Pair pair : c.pairs.empty() ? std::vector<Pair>{Pair::kIntra} : c.pairs) {
          if (pair == Pair::kInter && backends[b]->node_local()) {
            if (skipped)
              skipped->push_back(fmt::format(
                  "{}: {} between nodes is not possible ({} share one node)", backends[b]->label(),
                  op_name(op),
                  backends[b]->participants() == Participants::kThreads ? "threads" : "processes"));
            continue;
          }
          pairs.push_back(pair);
        }
      }
      // An op has one (empty) parameter set; an application one per combination of its
      // parameters.
      std::vector<AppParams> app_sets{AppParams{}};
      if (auto it = c.app_points.find(op); it != c.app_points.end()) app_sets = it->second;
      auto add_one = [&](int np, std::size_t bytes, bool size_table, bool np_table, Pair pair,
                         const AppParams& app) {
        for (auto& p : points)
          if (p.backend == b && p.op == op && p.np == np && p.bytes == bytes && p.pair == pair &&
              p.app == app) {
            p.size_table |= size_table;
            p.np_table |= np_table;
            return;
          }
        points.push_back({b, op, np, bytes, size_table, np_table, pair,
                          op_descriptor(op).windowed() ? c.window : 1, app});
      };
      auto add = [&](int np, std::size_t bytes, bool size_table, bool np_table) {
        for (const AppParams& app : app_sets)
          for (Pair pair : pairs) add_one(np, bytes, size_table, np_table, pair, app);
      };
      if (op_moves_data(op)) {
        for (std::size_t bytes : c.sizes) add(c.size_np, bytes, true, false);
        if (np_tables(c))
          for (int np : c.np_list) add(np, c.np_bytes, false, true);
      } else {
        std::vector<int> nps = c.np_list;
        if (std::find(nps.begin(), nps.end(), c.size_np) == nps.end()) nps.push_back(c.size_np);
        std::sort(nps.begin(), nps.end());
        for (int np : nps) add(np, 0, false, true);
      }
    }
  }
  return points;
}

void drop_beyond_node0(const NodeMap& nodes, const std::vector<std::unique_ptr<Backend>>& backends,
                       std::vector<Point>& points, std::vector<std::string>* skipped) {
  const int node0 = static_cast<int>(nodes.ranks.at(0).size());
  std::vector<Point> kept;
  for (const Point& p : points) {
    const Backend& b = *backends.at(p.backend);
    if (b.participants() == Participants::kThreads || !b.node_local() || p.np <= node0) {
      kept.push_back(p);
      continue;
    }
    const std::string note =
        fmt::format("{}: {} at np={} needs {} ranks on node 0 ({}), which runs {}", b.label(),
                    op_name(p.op), p.np, p.np, nodes.host.at(0), node0);
    if (skipped && std::find(skipped->begin(), skipped->end(), note) == skipped->end())
      skipped->push_back(note);
  }
  points = std::move(kept);
}

Placement place_point(const Backend& backend, const NodeMap& nodes, const Point& point,
                      PlacementPolicy policy) {
  if (backend.participants() == Participants::kThreads)
    return place_threads(nodes, point.np, point.pair);
  if (backend.node_local())
    return place_processes(nodes, point.np, PlacementPolicy::kPacked, point.pair);
  return place_processes(nodes, point.np, policy, point.pair);
}

Args args_for(const Point& p) {
  Args a;
  a.op = p.op;
  a.np = p.np;
  a.bytes = p.bytes;
  a.count = p.bytes / kElemBytes;
  a.root = 0;
  a.window = p.window;
  a.app = p.app;
  return a;
}

}  // namespace comops
