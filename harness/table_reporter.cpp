// Readable tables: bandwidth versus size and time versus nprocs per op, backends side by side,
// the machine limits beside them.
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>

#include "harness/ops.hpp"
#include "harness/placement.hpp"
#include "harness/reporter.hpp"
#include "harness/sizes.hpp"
#include "harness/stats.hpp"

namespace comops {
namespace {

std::string flags_of(const Row& r) {
  std::string f;
  if (r.oversubscribed) f += 'O';
  if (r.contended) f += 'C';
  if (r.point.wrong > 0) f += 'W';
  if (r.beyond_limit) f += 'L';
  return f;
}

std::string opt_num(const std::optional<double>& v, const char* spec = "{:10.4g}") {
  return v ? fmt::format(fmt::runtime(spec), *v) : fmt::format("{:>10}", "-");
}

class TableReporter final : public Reporter {
 public:
  TableReporter(std::string path, const Config& config, const MachineLimits& limits, NodeMap nodes)
      : path_(std::move(path)), config_(config), limits_(limits), nodes_(std::move(nodes)) {}

  void add(const Row& r) override { rows_.push_back(r); }

  void finish() override {
    const std::string text = render();
    const bool printed = std::fwrite(text.data(), 1, text.size(), stdout) == text.size();
    if (std::fflush(stdout) != 0 || !printed)
      throw RuntimeError(
          fmt::format("cannot write the tables to stdout: {}", std::strerror(errno)));
    if (!path_.empty()) {
      DocumentFile file(path_);
      file.update(text);
      file.finish();
    }
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
    return nodes_line() + s;
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
                   "run on node 0 ({}); the limits shown are node 0's (every node's are in the "
                   "JSON context); placement {}\n\n",
                   nodes_.host[0], placement_name(config_.placement));
  }

  std::string network_line() const {
    if (!limits_.network) return "";
    const auto& n = *limits_.network;
    return fmt::format(
        "network limit [network]: plain MPI between rank {} ({}) and rank {} ({}): 8 B round "
        "trip {:.3f} us, {} one-way bw {:.3f} GB/s\n",
        n.rank_a, n.host_a, n.rank_b, n.host_b, n.rtt_us, format_size(n.bw_bytes), n.bw_GBps);
  }

  std::string label(const Row& r) const {
    const auto& p = r.point;
    if (nodes_.nodes() > 1 && p.pair != Pair::kNone) return p.backend + " " + pair_name(p.pair);
    return p.backend;
  }

  static std::string flags_legend() {
    return "flags: O = oversubscribed (more participants than cores on a node), C = contended "
           "(CPU stall > 5 % of the point's time), W = wrong results, L = beyond its machine "
           "limit (see the note)\n";
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

  std::string header(OpKind op, const char* first) const {
    std::string h = fmt::format("{:>8}  {:<16}{:>5}{:>10}{:>10}{:>10}  {:<21}{:>10}", first,
                                "backend", "nodes", op == OpKind::kPingpong ? "RTT_us" : "time_us",
                                "min_us", "avg_us", "reps [min .. max] us", "bw_GBps");
    if (op == OpKind::kPingpong) h += fmt::format("{:>11}{:>10}", "latency_us", "rate_GBps");
    return h + "  flags\n";
  }

  std::string line(const std::string& key, const Row& r) const {
    const auto& p = r.point;
    std::string s =
        fmt::format("{:>8}  {:<16}{:>5}{:10.4g}{:10.4g}{:10.4g}  [{:8.4g} .. {:8.4g}]{}", key,
                    label(r), p.nodes, p.time_max_us, p.time_min_us, p.time_avg_us,
                    min_of(p.rep_max_us), max_of(p.rep_max_us), opt_num(r.bw_GBps));
    if (p.args.op == OpKind::kPingpong)
      s += fmt::format(" {}{}", opt_num(r.latency_us), opt_num(r.rate_GBps));
    return s + "  " + flags_of(r) + "\n";
  }

  // The single-copy memcpy row at a size: time of one copy, its range, bandwidth.
  std::string memcpy_line(const std::string& key, std::size_t bytes) const {
    auto it = limits_.memcpy_GBps.find(bytes);
    if (it == limits_.memcpy_GBps.end()) return "";
    const auto range = limits_.memcpy_range_GBps.find(bytes);
    return copy_limit_line(
        key, "[memcpy]", bytes, it->second,
        range == limits_.memcpy_range_GBps.end() ? Range{it->second, it->second} : range->second);
  }

  // The aggregate copy row at a size ("[aggregate x2]"): time of one thread's copy while all
  // copy at once, its range, the bandwidth of all together.
  std::string aggregate_line(const std::string& key, std::size_t bytes) const {
    auto it = limits_.aggregate_memcpy.find(bytes);
    if (it == limits_.aggregate_memcpy.end()) return "";
    const AggregateCopy& a = it->second;
    return copy_limit_line(key, fmt::format("[aggregate x{}]", a.threads),
                           bytes * static_cast<std::size_t>(a.threads), a.bw_GBps, a.range_GBps);
  }

  // The cache-line round trip row, with its range.
  std::string cacheline_line(const std::string& key) const {
    if (!limits_.cacheline_rtt_us) return "";
    return limit_line(key, "[cache-line]", 1, *limits_.cacheline_rtt_us,
                      limits_.cacheline_rtt_range_us);
  }

  // A copy limit moving `bytes` at bw_GBps (median, range over repetitions) as a limit row.
  static std::string copy_limit_line(const std::string& key, const std::string& name,
                                     std::size_t bytes, double bw_GBps, Range bw_range_GBps) {
    const auto us = [&](double bw) { return static_cast<double>(bytes) / (bw * 1e3); };
    return limit_line(key, name, 1, us(bw_GBps),
                      Range{us(bw_range_GBps.max), us(bw_range_GBps.min)}, bw_GBps);
  }

  // A machine-limit row: its time in the headline column, the range of that time over the
  // limit's repetitions in the reps column and, for a bandwidth limit, its bw.
  static std::string limit_line(const std::string& key, const std::string& name, int nodes,
                                double time_us, std::optional<Range> range_us = std::nullopt,
                                std::optional<double> bw_GBps = std::nullopt) {
    std::string s = fmt::format("{:>8}  {:<16}{:>5}{:10.4g}", key, name, nodes, time_us);
    if (range_us)
      s += fmt::format("{:>10}{:>10}  [{:8.4g} .. {:8.4g}]", "", "", range_us->min, range_us->max);
    else if (bw_GBps)
      s += fmt::format("{:>10}{:>10}  {:<22}", "", "", "");
    if (bw_GBps) s += fmt::format("{:10.4g}", *bw_GBps);
    return s + "\n";
  }

  // One line per row of a table that is beyond its machine limit, saying why.
  std::string limit_notes(const std::vector<const Row*>& rows) const {
    std::string s;
    for (const Row* r : rows)
      if (r->beyond_limit)
        s += fmt::format("note: {} {} np={} {}: {}\n", label(*r), op_name(r->point.args.op),
                         r->point.args.np, format_size(r->point.args.bytes), *r->beyond_limit);
    return s;
  }

  std::string size_table(OpKind op) const {
    std::map<std::size_t, std::vector<const Row*>> by_size;
    for (const auto& r : rows_)
      if (r.in_size_table && r.point.args.op == op) by_size[r.point.args.bytes].push_back(&r);
    if (by_size.empty() || !op_takes_size(op)) return "";
    std::string s =
        fmt::format("== {}: bandwidth versus size, np={} ==\n", op_name(op), config_.size_np);
    s += definition(op) + limits_line() + header(op, "bytes");
    std::vector<const Row*> all;
    for (const auto& [bytes, rows] : by_size) {
      const std::string key = format_size(bytes);
      for (const Row* r : rows) s += line(key, *r);
      all.insert(all.end(), rows.begin(), rows.end());
      s += memcpy_line(key, bytes) + aggregate_line(key, bytes);
      if (op != OpKind::kPingpong) continue;
      if (bytes <= 64) s += cacheline_line(key);
      if (const auto& net = limits_.network; net && bytes == 8)
        s += limit_line(key, "[network]", 2, net->rtt_us);
      if (const auto& net = limits_.network; net && bytes == net->bw_bytes)
        s +=
            limit_line(key, "[network]", 2, 2.0 * static_cast<double>(bytes) / (net->bw_GBps * 1e3),
                       std::nullopt, net->bw_GBps);
    }
    return s + limit_notes(all) + "\n";
  }

  std::string np_table(OpKind op) const {
    std::map<int, std::vector<const Row*>> by_np;
    for (const auto& r : rows_)
      if (r.in_np_table && r.point.args.op == op) by_np[r.point.args.np].push_back(&r);
    if (by_np.empty()) return "";
    const std::size_t bytes = op_takes_size(op) ? config_.np_bytes : 0;
    std::string s = op_takes_size(op)
                        ? fmt::format("== {}: time versus nprocs at {} bytes ({}) ==\n",
                                      op_name(op), bytes, format_size(bytes))
                        : fmt::format("== {}: time versus nprocs ==\n", op_name(op));
    s += definition(op) + limits_line() + header(op, "np");
    std::vector<const Row*> all;
    for (const auto& [np, rows] : by_np) {
      for (const Row* r : rows) s += line(std::to_string(np), *r);
      all.insert(all.end(), rows.begin(), rows.end());
    }
    if (op_takes_size(op)) s += memcpy_line("-", bytes) + aggregate_line("-", bytes);
    return s + limit_notes(all) + "\n";
  }

  static std::string definition(OpKind op) {
    if (op == OpKind::kPingpong)
      return "RTT = round trip between participants 0 and 1; latency = RTT/2; bw = one-way "
             "2 x size / RTT; rate = COMOPS size / RTT; GB = 1e9 B; median of repetitions\n";
    if (op == OpKind::kGather || op == OpKind::kScatter)
      return "time = max over participants (min, avg beside it) of the per-iteration time; size "
             "per participant; bw = (np-1) x size / time; GB = 1e9 B; median of repetitions\n";
    if (op == OpKind::kBarrier)
      return "time = max over participants (min, avg beside it) of the per-iteration time; "
             "median of repetitions\n";
    return "time = max over participants (min, avg beside it) of the per-iteration time; bw = "
           "size / time; GB = 1e9 B; median of repetitions\n";
  }

  std::string path_;
  const Config& config_;
  const MachineLimits& limits_;
  NodeMap nodes_;
  std::vector<Row> rows_;
};

}  // namespace

std::unique_ptr<Reporter> make_table_reporter(const std::string& path, const Config& config,
                                              const MachineLimits& limits, const NodeMap& nodes) {
  return std::make_unique<TableReporter>(path, config, limits, nodes);
}

}  // namespace comops
