// JSON reporter: context plus every row so far, rewritten atomically after each row (written
// once at the end into a device or FIFO).
#include <fmt/format.h>

#include "harness/output_file.hpp"
#include "harness/placement.hpp"
#include "harness/reporter.hpp"

namespace comops {

namespace {

class JsonReporter final : public Reporter {
 public:
  JsonReporter(const std::string& path, nlohmann::json context) : file_(path) {
    doc_ = {{"comops_format", 1},
            {"context", std::move(context)},
            {"results", nlohmann::json::array()}};
    file_.update(doc_.dump(2) + "\n");
  }
  void add(const Row& r) override {
    doc_["results"].push_back(to_json(r));
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
  nlohmann::json doc_;
};

}  // namespace

std::unique_ptr<Reporter> make_json_reporter(const std::string& path, nlohmann::json context) {
  return std::make_unique<JsonReporter>(path, std::move(context));
}

}  // namespace comops
