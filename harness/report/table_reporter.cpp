// The final report: the busy note, the who-wins summary, then the readable tables (bandwidth
// versus size and time versus nprocs per op, backends side by side, fixed decimals per column,
// the machine limits below each table's rows).
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>

#include "harness/ops/app_options.hpp"
#include "harness/ops/op_queries.hpp"
#include "harness/report/busy_note.hpp"
#include "harness/report/reporter.hpp"
#include "harness/report/summary.hpp"
#include "harness/runtime/placement.hpp"
#include "harness/util/output_file.hpp"
#include "harness/util/sizes.hpp"
#include "harness/util/stats.hpp"
#include "harness/util/text_table.hpp"

namespace comops {
namespace {

class TableReporter final : public Reporter {
 public:
  TableReporter(std::string path, const Config& config, const MachineLimits& limits, NodeMap nodes,
                std::optional<double> idle_share)
      : path_(std::move(path)),
        config_(config),
        limits_(limits),
        nodes_(std::move(nodes)),
        idle_share_(idle_share) {
    // A regular file is kept up to date from the first row on; a stream gets the tables once.
    std::error_code ec;
    if (!path_.empty() &&
        (!std::filesystem::exists(path_, ec) || std::filesystem::is_regular_file(path_, ec)))
      file_.emplace(path_);
  }

  // The file is rewritten after every row, so that a run that ends early (a lost rank, the
  // watchdog, a signal) leaves the tables of what it measured, under a line that says so.
  void add(const Row& r) override {
    rows_.push_back(r);
    if (file_)
      file_->update(
          fmt::format("comops: the run had not finished when this was written: {} "
                      "point(s) so far\n\n{}",
                      rows_.size(), render()));
  }

  // The file first, so that a stdout that cannot be written loses nothing measured.
  void finish() override {
    const std::string text = render();
    std::string failure;
    if (!path_.empty()) {
      try {
        if (!file_) file_.emplace(path_);
        file_->update(text);
        file_->finish();
      } catch (const std::exception& e) {
        failure = e.what();
      }
    }
    write_stdout(text);
    if (!failure.empty()) throw RuntimeError(failure);
  }

 private:
  std::string render() const {
    std::string s;
    for (OpKind op : config_.ops) {
      s += size_table(op);
      s += np_table(op);
    }
    if (s.empty()) return "no points were measured\n";
    s += flags_legend();
    const SummaryLayout layout{config_.ops, nodes_.nodes() > 1};
    return nodes_line() + busy_note(rows_, idle_share_) + render_summary(summarize(rows_, layout)) +
           s;
  }

  // On several nodes: which ranks run where, and whose limits the tables show.
  std::string nodes_line() const {
    if (nodes_.nodes() < 2) return "";
    std::string s = fmt::format("nodes: {} --", nodes_.nodes());
    for (int n = 0; n < nodes_.nodes(); ++n) {
      const auto& ranks = nodes_.ranks[static_cast<std::size_t>(n)];
      s +=
          fmt::format(" node {} = {} (world ranks {}, {} cores){}", n,
                      nodes_.host[static_cast<std::size_t>(n)], fmt::join(ranks, ","),
                      nodes_.cores[static_cast<std::size_t>(n)], n + 1 < nodes_.nodes() ? ";" : "");
    }
    return s + fmt::format(
                   "\nthe nodes column counts the nodes a point's participants span; shm threads "
                   "run on node 0 ({}), shmp processes are node 0's first ranks (they share its "
                   "memory); the limits shown are node 0's (every node's are in the JSON "
                   "context); placement {}\n\n",
                   nodes_.host[0], placement_name(config_.placement));
  }

  // The machine limits ---------------------------------------------------------------------
  // Everything about the limits is rendered here: the header line and the block of limit rows
  // that follows each table's data rows.

  std::string network_line() const {
    if (!limits_.network) return "";
    const auto& n = *limits_.network;
    return fmt::format(
        "network limit [network]: plain MPI between rank {} ({}) and rank {} ({}): 8 B round "
        "trip {:.3f} us, {} one-way bw {:.3f} GB/s\n",
        n.rank_a, n.host_a, n.rank_b, n.host_b, n.rtt_us, format_size(n.bw_bytes), n.bw_GBps);
  }

  static std::string flags_legend() {
    return "flags: O = oversubscribed (more participants than cores on a node), C = contended "
           "(a participant waited for a CPU, or the host took its CPU (steal), > 5 % of its timed "
           "repetitions), W = wrong results, "
           "L = beyond its machine limit (see the note)\n";
  }

  std::string limits_line() const {
    std::string s = "machine limits:";
    if (limits_.cacheline_rtt_us)
      s += fmt::format(" cache-line round trip {:.3f} us [{:.3f} .. {:.3f}] (cpus {} and {});",
                       *limits_.cacheline_rtt_us, limits_.cacheline_rtt_range_us.min,
                       limits_.cacheline_rtt_range_us.max, limits_.core_a, limits_.core_b);
    else
      s += " cache-line round trip not measured;";
    if (limits_.memcpy_GBps.empty()) return s + " memcpy not measured\n" + network_line();
    s += " memcpy of one core";
    if (!limits_.aggregate_memcpy.empty())
      s += fmt::format(" and aggregate copy of {} cores at once",
                       limits_.aggregate_memcpy.begin()->second.threads);
    return s + " per size below; limit rows show [min .. max] over repetitions\n" + network_line();
  }

  // The limit rows of a table whose points have these sizes: [memcpy] and [aggregate xN] per
  // size, and for ping-pong [cache-line] up to 64 B and [network] (several nodes); each with
  // the range of its time over the limit's repetitions; "" when there are none.
  std::string limit_rows(OpKind op, const std::vector<std::size_t>& sizes) const {
    struct Limit {
      std::size_t bytes;
      std::string name;
      int nodes;
      double time_us;
      std::optional<Range> range_us;
      std::optional<double> bw_GBps;
    };
    // A copy of `bytes` at bw_GBps (median; range over repetitions) as a limit row.
    const auto copy = [](std::size_t key, std::string name, std::size_t bytes, double bw_GBps,
                         Range bw_range) {
      const auto us = [&](double bw) { return static_cast<double>(bytes) / (bw * 1e3); };
      return Limit{
          key, std::move(name), 1, us(bw_GBps), Range{us(bw_range.max), us(bw_range.min)}, bw_GBps};
    };
    std::vector<Limit> rows;
    for (std::size_t bytes : sizes) {
      if (auto it = limits_.memcpy_GBps.find(bytes); it != limits_.memcpy_GBps.end()) {
        const auto range = limits_.memcpy_range_GBps.find(bytes);
        rows.push_back(copy(bytes, "[memcpy]", bytes, it->second,
                            range == limits_.memcpy_range_GBps.end() ? Range{it->second, it->second}
                                                                     : range->second));
      }
      if (auto it = limits_.aggregate_memcpy.find(bytes); it != limits_.aggregate_memcpy.end())
        rows.push_back(copy(bytes, fmt::format("[aggregate x{}]", it->second.threads),
                            bytes * static_cast<std::size_t>(it->second.threads),
                            it->second.bw_GBps, it->second.range_GBps));
      if (!op_descriptor(op).pingpong()) continue;
      if (bytes <= 64 && limits_.cacheline_rtt_us)
        rows.push_back({bytes, "[cache-line]", 1, *limits_.cacheline_rtt_us,
                        limits_.cacheline_rtt_range_us, std::nullopt});
      if (const auto& net = limits_.network; net && bytes == 8)
        rows.push_back({bytes, "[network]", 2, net->rtt_us, std::nullopt, std::nullopt});
      if (const auto& net = limits_.network; net && bytes == net->bw_bytes)
        rows.push_back({bytes, "[network]", 2,
                        2.0 * static_cast<double>(bytes) / (net->bw_GBps * 1e3), std::nullopt,
                        net->bw_GBps});
    }
    if (rows.empty()) return "";
    std::vector<std::optional<double>> times, lows, highs, bws;
    std::vector<double> time_values, bw_values;
    for (const auto& l : rows) {
      times.push_back(l.time_us);
      time_values.push_back(l.time_us);
      lows.push_back(l.range_us ? std::optional(l.range_us->min) : std::nullopt);
      highs.push_back(l.range_us ? std::optional(l.range_us->max) : std::nullopt);
      if (l.range_us) time_values.insert(time_values.end(), {l.range_us->min, l.range_us->max});
      bws.push_back(l.bw_GBps);
      if (l.bw_GBps) bw_values.push_back(*l.bw_GBps);
    }
    const int td = decimals_for(time_values);
    const auto time_cells = number_cells(times, td), low_cells = number_cells(lows, td),
               high_cells = number_cells(highs, td);
    const auto bw_cells = number_cells(bws, decimals_for(bw_values));
    TextTable t;
    t.column("bytes").column("limit", TextTable::Align::kLeft).column("nodes");
    t.column(std::string(time_column(op))).column("reps [min .. max] us");
    t.column(std::string(bw_column(op)));
    for (std::size_t i = 0; i < rows.size(); ++i)
      t.row({format_size(rows[i].bytes), rows[i].name, std::to_string(rows[i].nodes), time_cells[i],
             rows[i].range_us ? fmt::format("[{} .. {}]", low_cells[i], high_cells[i]) : "",
             bw_cells[i]});
    return "limits at these sizes (median and range over repetitions):\n" + t.render("  ");
  }

  // The measured rows -----------------------------------------------------------------------

  // The data rows of one table, keys beside them, with fixed decimals per kind of column.
  std::string data_rows(OpKind op, const char* key_name,
                        const std::vector<std::pair<std::string, const Row*>>& rows) const {
    const bool pingpong = op_descriptor(op).pingpong();
    const bool percentiles = config_.measure.percentiles;
    std::vector<double> time_values, bw_values;
    std::vector<std::optional<double>> time, tmin, tavg, rmin, rmax, bw, lat, rate;
    std::vector<std::optional<double>> p50, p90, p99, pmax;
    for (const auto& [key, r] : rows) {
      const auto& p = r->point;
      time.push_back(p.time_max_us);
      tmin.push_back(p.time_min_us);
      tavg.push_back(p.time_avg_us);
      rmin.push_back(min_of(p.rep_max_us));
      rmax.push_back(max_of(p.rep_max_us));
      bw.push_back(r->bw_GBps);
      lat.push_back(r->latency_us);
      rate.push_back(r->rate_GBps);
      const auto& q = p.percentiles_us;
      p50.push_back(q ? std::optional(q->p50) : std::nullopt);
      p90.push_back(q ? std::optional(q->p90) : std::nullopt);
      p99.push_back(q ? std::optional(q->p99) : std::nullopt);
      pmax.push_back(q ? std::optional(q->max) : std::nullopt);
      for (const auto& v :
           {time.back(), tmin.back(), tavg.back(), rmin.back(), rmax.back(), lat.back()})
        if (v) time_values.push_back(*v);
      if (percentiles && q) time_values.insert(time_values.end(), {q->p50, q->p90, q->p99, q->max});
      for (const auto& v : {bw.back(), rate.back()})
        if (v) bw_values.push_back(*v);
    }
    const int td = decimals_for(time_values), bd = decimals_for(bw_values);
    const auto c_time = number_cells(time, td), c_min = number_cells(tmin, td),
               c_avg = number_cells(tavg, td), c_rmin = number_cells(rmin, td),
               c_rmax = number_cells(rmax, td), c_bw = number_cells(bw, bd),
               c_lat = number_cells(lat, td), c_rate = number_cells(rate, bd),
               c_p50 = number_cells(p50, td), c_p90 = number_cells(p90, td),
               c_p99 = number_cells(p99, td), c_pmax = number_cells(pmax, td);
    TextTable t;
    t.column(key_name).column("backend", TextTable::Align::kLeft).column("nodes");
    t.column(std::string(time_column(op))).column("min_us").column("avg_us");
    t.column("reps [min .. max] us");
    if (percentiles) t.column("p50_us").column("p90_us").column("p99_us").column("pmax_us");
    t.column(std::string(bw_column(op)));
    if (pingpong) t.column("latency_us").column("rate_GBps");
    t.column("flags", TextTable::Align::kLeft);
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const Row& r = *rows[i].second;
      std::vector<std::string> cells{rows[i].first,
                                     row_label(r, nodes_.nodes() > 1),
                                     std::to_string(r.point.nodes),
                                     c_time[i],
                                     c_min[i],
                                     c_avg[i],
                                     fmt::format("[{} .. {}]", c_rmin[i], c_rmax[i])};
      if (percentiles) cells.insert(cells.end(), {c_p50[i], c_p90[i], c_p99[i], c_pmax[i]});
      cells.push_back(c_bw[i]);
      if (pingpong) {
        cells.push_back(c_lat[i]);
        cells.push_back(c_rate[i]);
      }
      cells.push_back(flags_of(r));
      t.row(std::move(cells));
    }
    return t.render("  ");
  }

  // One line per row of a table that is beyond its machine limit, saying why.
  std::string limit_notes(const std::vector<const Row*>& rows) const {
    std::string s;
    for (const Row* r : rows)
      if (r->beyond_limit)
        s += fmt::format("note: {} {} np={} {}: {}\n", row_label(*r, nodes_.nodes() > 1),
                         op_name(r->point.args.op), r->point.args.np,
                         format_size(r->point.args.bytes), *r->beyond_limit);
    return s;
  }

  std::string size_table(OpKind op) const {
    std::map<std::size_t, std::vector<const Row*>> by_size;
    for (const auto& r : rows_)
      if (r.in_size_table && r.point.args.op == op) by_size[r.point.args.bytes].push_back(&r);
    if (by_size.empty() || !op_moves_data(op)) return "";
    std::string s =
        fmt::format("== {}: bandwidth versus size, np={} ==\n", op_name(op), config_.size_np);
    s += definition(op) + timing_line() + limits_line();
    std::vector<std::pair<std::string, const Row*>> rows;
    std::vector<std::size_t> sizes;
    for (const auto& [bytes, at_size] : by_size) {
      sizes.push_back(bytes);
      for (const Row* r : at_size) rows.emplace_back(format_size(bytes), r);
    }
    std::vector<const Row*> all;
    for (const auto& row : rows) all.push_back(row.second);
    return s + data_rows(op, "bytes", rows) + limit_rows(op, sizes) + limit_notes(all) + "\n";
  }

  std::string np_table(OpKind op) const {
    if (op_is_app(op)) return app_table(op);
    std::map<int, std::vector<const Row*>> by_np;
    for (const auto& r : rows_)
      if (r.in_np_table && r.point.args.op == op) by_np[r.point.args.np].push_back(&r);
    if (by_np.empty()) return "";
    const std::size_t bytes = op_moves_data(op) ? config_.np_bytes : 0;
    std::string s = op_moves_data(op)
                        ? fmt::format("== {}: time versus nprocs at {} bytes ({}) ==\n",
                                      op_name(op), bytes, format_size(bytes))
                        : fmt::format("== {}: time versus nprocs ==\n", op_name(op));
    s += definition(op) + timing_line() + limits_line();
    std::vector<std::pair<std::string, const Row*>> rows;
    for (const auto& [np, at_np] : by_np)
      for (const Row* r : at_np) rows.emplace_back(std::to_string(np), r);
    s += data_rows(op, "np", rows);
    if (op_moves_data(op)) s += limit_rows(op, {bytes});
    std::vector<const Row*> all;
    for (const auto& row : rows) all.push_back(row.second);
    return s + limit_notes(all) + "\n";
  }

  // An application's table: per np and parameter combination (in the order measured), the
  // backends' rows.
  std::string app_table(OpKind op) const {
    std::vector<std::pair<std::string, std::vector<const Row*>>> keyed;
    std::map<int, std::vector<std::size_t>> by_np;  // np -> indices into keyed
    for (const auto& r : rows_) {
      if (r.point.args.op != op) continue;
      const std::string key =
          fmt::format("{} {}", r.point.args.np, app_params_text(r.point.args.app));
      auto it =
          std::find_if(keyed.begin(), keyed.end(), [&](const auto& k) { return k.first == key; });
      if (it == keyed.end()) {
        by_np[r.point.args.np].push_back(keyed.size());
        keyed.push_back({key, {}});
        it = keyed.end() - 1;
      }
      it->second.push_back(&r);
    }
    if (keyed.empty()) return "";
    std::string s =
        fmt::format("== {}: application time versus nprocs and parameters ==\n", op_name(op));
    s += definition(op) + timing_line();
    std::vector<std::pair<std::string, const Row*>> rows;
    for (const auto& [np, indices] : by_np)
      for (std::size_t i : indices)
        for (const Row* r : keyed[i].second) rows.emplace_back(keyed[i].first, r);
    s += data_rows(op, "np params", rows);
    std::vector<const Row*> all;
    for (const auto& row : rows) all.push_back(row.second);
    return s + limit_notes(all) + "\n";
  }

  // How the calls were timed (--sync), and the percentile columns when they are shown.
  std::string timing_line() const {
    std::string s = "timing: " + sync_description(config_.measure.sync);
    if (config_.measure.percentiles)
      s += config_.measure.sync == Sync::kNone
               ? "; p50/p90/p99/pmax_us: percentiles of the per-call time (each call timed "
                 "alone by a clock read after it; its max over participants), all calls of all "
                 "repetitions"
               : "; p50/p90/p99/pmax_us: percentiles of the per-call time (its max over "
                 "participants), all calls of all repetitions";
    return s + "\n";
  }

  std::string definition(OpKind op) const {
    std::string s(op_descriptor(op).definition);
    if (op_descriptor(op).windowed()) s += fmt::format("; W = {} (--window)", config_.window);
    return s + "\n";
  }

  std::string path_;
  const Config& config_;
  const MachineLimits& limits_;
  NodeMap nodes_;
  std::optional<double> idle_share_;
  std::optional<DocumentFile> file_;  // the table file while rows come in (regular files)
  std::vector<Row> rows_;
};

}  // namespace

std::unique_ptr<Reporter> make_table_reporter(const std::string& path, const Config& config,
                                              const MachineLimits& limits, const NodeMap& nodes,
                                              std::optional<double> idle_share) {
  return std::make_unique<TableReporter>(path, config, limits, nodes, idle_share);
}

}  // namespace comops
