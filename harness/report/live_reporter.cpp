// Rows as they finish: one line per point on stdout, flushed at once, with a header line
// whenever the op changes (as OSU and nccl-tests print), before the final summary and tables.
#include <fmt/format.h>

#include <algorithm>

#include "harness/ops/app_options.hpp"
#include "harness/ops/op_queries.hpp"
#include "harness/report/reporter.hpp"
#include "harness/util/sizes.hpp"

namespace comops {
namespace {

class LiveReporter final : public Reporter {
 public:
  LiveReporter(bool several_nodes, Sync sync) : several_nodes_(several_nodes), sync_(sync) {}

  void add(const Row& r) override {
    const auto& p = r.point;
    std::string s;
    if (!printed_ || p.args.op != last_op_) s = live_header(p.args.op, sync_);
    printed_ = true;
    last_op_ = p.args.op;
    write_stdout(s + live_line(r, several_nodes_));
  }

  // A blank line between the rows and the summary that follows them.
  void finish() override {
    if (printed_) write_stdout("\n");
  }

 private:
  bool several_nodes_;
  Sync sync_;
  bool printed_ = false;
  OpKind last_op_ = OpKind::kPingpong;
};

// The op column's width under one op's header: 11, or the op's name when it is longer.
std::size_t op_width(OpKind op) { return std::max<std::size_t>(11, op_name(op).size()); }

}  // namespace

std::string live_header(OpKind op, Sync sync) {
  return fmt::format("#  {:<16} {:<{}} {:>4} {:>8} {:>12} {:>12}  flags  sync={}\n", "backend",
                     "op", op_width(op), "np", op_is_app(op) ? "params" : "bytes", time_column(op),
                     bw_column(op), sync_name(sync));
}

std::string live_line(const Row& r, bool several_nodes) {
  const auto& p = r.point;
  const std::string bw = r.bw_GBps ? fmt::format("{:.4f}", *r.bw_GBps) : "-";
  std::string s =
      fmt::format("   {:<16} {:<{}} {:>4} {:>8} {:>12.3f} {:>12}  {}", row_label(r, several_nodes),
                  op_name(p.args.op), op_width(p.args.op), p.args.np,
                  op_is_app(p.args.op) ? app_params_text(p.args.app) : format_size(p.args.bytes),
                  p.time_max_us, bw, flags_of(r));
  s.erase(s.find_last_not_of(' ') + 1);
  return s + "\n";
}

std::unique_ptr<Reporter> make_live_reporter(bool several_nodes, Sync sync) {
  return std::make_unique<LiveReporter>(several_nodes, sync);
}

}  // namespace comops
