// JSON reporter: context plus every row so far and the who-wins summary of them, rewritten
// atomically after each row (written once at the end into a device or FIFO).
#include <fmt/format.h>

#include "harness/report/reporter.hpp"
#include "harness/runtime/placement.hpp"
#include "harness/util/output_file.hpp"

namespace comops {

namespace {

class JsonReporter final : public Reporter {
 public:
  JsonReporter(const std::string& path, nlohmann::json context, SummaryLayout layout)
      : file_(path), layout_(std::move(layout)) {
    doc_ = {{"comops_format", 1},
            {"context", std::move(context)},
            {"results", nlohmann::json::array()},
            {"summary", nlohmann::json::array()}};
    file_.update(doc_.dump(2) + "\n");
  }
  void add(const Row& r) override {
    doc_["results"].push_back(to_json(r));
    rows_.push_back(r);
    doc_["summary"] = summary_json(summarize(rows_, layout_));
    auto& ctx = doc_["context"];
    if (r.oversubscribed) ctx["oversubscribed"] = true;
    // One entry per placement: an inter-node ping-pong pair is placed apart from the others.
    ctx["bindings"][fmt::format("{} np={}{}", r.point.backend, r.point.args.np,
                                r.point.pair == Pair::kInter ? " inter" : "")] = r.point.cores;
    file_.update(doc_.dump(2) + "\n");
  }
  void finish() override { file_.finish(); }

 private:
  DocumentFile file_;
  SummaryLayout layout_;
  nlohmann::json doc_;
  std::vector<Row> rows_;
};

}  // namespace

std::unique_ptr<Reporter> make_json_reporter(const std::string& path, nlohmann::json context,
                                             const SummaryLayout& layout) {
  return std::make_unique<JsonReporter>(path, std::move(context), layout);
}

}  // namespace comops
