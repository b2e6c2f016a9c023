// The who-wins summary: grouping rows per op and table shape, picking the winner, rendering.
#include "harness/report/summary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "harness/ops/app_options.hpp"
#include "harness/ops/op_queries.hpp"
#include "harness/util/sizes.hpp"
#include "harness/util/text_table.hpp"

namespace comops {
namespace {

// The rows of one table shape of one op, as a table: columns by first appearance, lines by key.
SummaryTable build(OpKind op, bool size_table, const std::vector<const Row*>& rows,
                   bool several_nodes) {
  SummaryTable t;
  t.op = op;
  t.size_table = size_table;
  t.np = rows.front()->point.args.np;
  t.bytes = rows.front()->point.args.bytes;
  t.app = rows.front()->point.args.app;
  std::map<std::size_t, std::map<std::size_t, const Row*>> by_key;  // key -> column -> row
  for (const Row* r : rows) {
    const std::string label = row_label(*r, several_nodes);
    auto it = std::find(t.backends.begin(), t.backends.end(), label);
    const auto column = static_cast<std::size_t>(it - t.backends.begin());
    if (it == t.backends.end()) t.backends.push_back(label);
    const std::size_t key =
        size_table ? r->point.args.bytes : static_cast<std::size_t>(r->point.args.np);
    by_key[key][column] = r;
  }
  for (const auto& [key, columns] : by_key) {
    SummaryLine line;
    line.key = key;
    line.time_us.resize(t.backends.size());
    line.flags.resize(t.backends.size());
    for (const auto& [column, r] : columns) {
      line.time_us[column] = r->point.time_max_us;
      line.flags[column] = flags_of(*r);
      if (r->memcpy_GBps && *r->memcpy_GBps > 0 && r->point.args.bytes > 0)
        line.memcpy_us = static_cast<double>(r->point.args.bytes) / (*r->memcpy_GBps * 1e3);
      // A wrong result never wins; ties go to the earlier column.
      if (r->point.wrong > 0 || r->point.time_max_us <= 0) continue;
      const double time = r->point.time_max_us;
      if (!line.winner || time < *line.time_us[*line.winner]) {
        line.runner_up = line.winner;
        line.winner = column;
      } else if (!line.runner_up || time < *line.time_us[*line.runner_up]) {
        line.runner_up = column;
      }
    }
    if (line.winner && line.runner_up)
      line.margin = *line.time_us[*line.runner_up] / *line.time_us[*line.winner];
    t.lines.push_back(std::move(line));
  }
  return t;
}

std::string key_text(const SummaryTable& t, std::size_t key) {
  return t.size_table ? format_size(key) : std::to_string(key);
}

std::string title(const SummaryTable& t, const char* unit) {
  const std::string_view what = time_word(t.op);
  if (t.size_table)
    return fmt::format("== {} at np={}: {} in {} per size ==\n", op_name(t.op), t.np, what, unit);
  if (op_moves_data(t.op))
    return fmt::format("== {} at {}: {} in {} per np ==\n", op_name(t.op), format_size(t.bytes),
                       what, unit);
  if (!t.app.empty())
    return fmt::format("== {} {}: {} in {} per np ==\n", op_name(t.op), app_params_text(t.app),
                       what, unit);
  return fmt::format("== {}: {} in {} per np ==\n", op_name(t.op), what, unit);
}

std::string render_one(const SummaryTable& t) {
  // One unit per table: ms when even its fastest time is a millisecond or more.
  double fastest = 0;
  for (const auto& line : t.lines)
    for (const auto& v : line.time_us)
      if (v && *v > 0 && (fastest == 0 || *v < fastest)) fastest = *v;
  const bool ms = fastest >= 1000;
  const double scale = ms ? 1e-3 : 1.0;
  const char* unit = ms ? "ms" : "us";
  auto scaled = [&](const std::optional<double>& v) -> std::optional<double> {
    return v ? std::optional<double>(*v * scale) : std::nullopt;
  };
  std::vector<double> times, limits;
  bool any_limit = false;
  for (const auto& line : t.lines) {
    for (const auto& v : line.time_us)
      if (v) times.push_back(*v * scale);
    if (line.memcpy_us) {
      limits.push_back(*line.memcpy_us * scale);
      any_limit = true;
    }
  }
  const int time_decimals = decimals_for(times);
  TextTable table;
  table.column(t.size_table ? "bytes" : "np");
  std::vector<std::vector<std::string>> columns;  // per backend, per line
  for (std::size_t b = 0; b < t.backends.size(); ++b) {
    table.column(t.backends[b]);
    std::vector<std::optional<double>> values;
    std::vector<std::string> marks;
    for (const auto& line : t.lines) {
      values.push_back(scaled(line.time_us[b]));
      marks.push_back(line.flags[b]);
    }
    columns.push_back(number_cells(values, time_decimals, marks));
  }
  table.column("winner", TextTable::Align::kLeft).column("margin");
  std::vector<std::string> limit_cells;
  if (any_limit) {
    table.column(fmt::format("memcpy_{}", unit));
    std::vector<std::optional<double>> values;
    for (const auto& line : t.lines) values.push_back(scaled(line.memcpy_us));
    limit_cells = number_cells(values, decimals_for(limits));
  }
  for (std::size_t i = 0; i < t.lines.size(); ++i) {
    const SummaryLine& line = t.lines[i];
    std::vector<std::string> cells{key_text(t, line.key)};
    for (const auto& column : columns) cells.push_back(column[i]);
    cells.push_back(line.winner ? t.backends[*line.winner] : "-");
    cells.push_back(line.margin ? fmt::format("{:.2f}x", *line.margin) : "-");
    if (any_limit) cells.push_back(limit_cells[i]);
    table.row(std::move(cells));
  }
  return title(t, unit) + table.render();
}

}  // namespace

std::vector<SummaryTable> summarize(const std::vector<Row>& rows, const SummaryLayout& layout) {
  std::vector<OpKind> ops = layout.ops;
  for (const Row& r : rows)
    if (std::find(ops.begin(), ops.end(), r.point.args.op) == ops.end())
      ops.push_back(r.point.args.op);
  std::vector<SummaryTable> tables;
  for (OpKind op : ops) {
    std::vector<const Row*> size_rows, np_rows;
    for (const Row& r : rows) {
      if (r.point.args.op != op) continue;
      if (r.in_size_table && op_moves_data(op)) size_rows.push_back(&r);
      if (r.in_np_table) np_rows.push_back(&r);
    }
    if (!size_rows.empty()) tables.push_back(build(op, true, size_rows, layout.several_nodes));
    // One np table per parameter combination of an application (one for an op), in the order
    // measured.
    std::vector<std::pair<AppParams, std::vector<const Row*>>> by_app;
    for (const Row* r : np_rows) {
      auto it = std::find_if(by_app.begin(), by_app.end(),
                             [&](const auto& a) { return a.first == r->point.args.app; });
      if (it == by_app.end()) it = by_app.insert(by_app.end(), {r->point.args.app, {}});
      it->second.push_back(r);
    }
    for (const auto& [app, app_rows] : by_app)
      tables.push_back(build(op, false, app_rows, layout.several_nodes));
  }
  return tables;
}

std::string render_summary(const std::vector<SummaryTable>& tables) {
  if (tables.empty()) return "";
  std::string s;
  for (const auto& t : tables) s += render_one(t) + "\n";
  return s +
         "who wins: each backend's headline time (ping-pong: the round trip); winner = the fastest "
         "backend\nwithout wrong results (W never wins), margin = the runner-up's time / the "
         "winner's; memcpy =\nthe time one single-thread memcpy of the size takes (the memcpy "
         "limit "
         "as a time)\n\n";
}

nlohmann::json summary_json(const std::vector<SummaryTable>& tables) {
  nlohmann::json out = nlohmann::json::array();
  auto opt = [](const std::optional<double>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
  };
  for (const auto& t : tables) {
    nlohmann::json j = {{"op", std::string(op_name(t.op))},
                        {"table", t.size_table ? "size" : "np"}};
    if (t.size_table)
      j["np"] = t.np;
    else
      j["bytes"] = t.bytes;
    if (op_is_app(t.op)) {
      nlohmann::json app = nlohmann::json::object();
      for (const auto& [name, value] : t.app) app[name] = value;
      j["app"] = app;
    }
    j["backends"] = t.backends;
    nlohmann::json lines = nlohmann::json::array();
    for (const auto& line : t.lines) {
      nlohmann::json times = nlohmann::json::object(), flags = nlohmann::json::object();
      for (std::size_t b = 0; b < t.backends.size(); ++b) {
        if (line.time_us[b]) times[t.backends[b]] = *line.time_us[b];
        if (!line.flags[b].empty()) flags[t.backends[b]] = line.flags[b];
      }
      auto label = [&](const std::optional<std::size_t>& column) {
        return column ? nlohmann::json(t.backends[*column]) : nlohmann::json(nullptr);
      };
      lines.push_back({{t.size_table ? "bytes" : "np", line.key},
                       {"time_us", times},
                       {"flags", flags},
                       {"winner", label(line.winner)},
                       {"runner_up", label(line.runner_up)},
                       {"margin", opt(line.margin)},
                       {"memcpy_us", opt(line.memcpy_us)}});
    }
    j["rows"] = lines;
    out.push_back(j);
  }
  return out;
}

}  // namespace comops
