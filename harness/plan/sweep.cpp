// Building the list of points before the run.
#include "harness/plan/sweep.hpp"

#include <fmt/format.h>

#include <algorithm>

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
          if (pair == Pair::kInter && backends[b]->participants() == Participants::kThreads) {
            if (skipped)
              skipped->push_back(
                  fmt::format("{}: {} between nodes is not possible (threads share one node)",
                              backends[b]->label(), op_name(op)));
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
