// JSON reporter: context plus every row so far, rewritten atomically after each row.
#include <fmt/format.h>

#include <cstdio>
#include <fstream>

#include "harness/placement.hpp"
#include "harness/reporter.hpp"

namespace comops {

void write_file_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << text;
    out.flush();
    if (!out) throw RuntimeError(fmt::format("cannot write {}", path));
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    throw RuntimeError(fmt::format("cannot write {}", path));
}

namespace {

class JsonReporter final : public Reporter {
 public:
  JsonReporter(const std::string& path, nlohmann::json context) : path_(path) {
    doc_ = {{"comops_format", 1},
            {"context", std::move(context)},
            {"results", nlohmann::json::array()}};
    write_file_atomically(path_, doc_.dump(2) + "\n");
  }
  void add(const Row& r) override {
    doc_["results"].push_back(to_json(r));
    auto& ctx = doc_["context"];
    if (r.oversubscribed) ctx["oversubscribed"] = true;
    // One entry per placement: an inter-node ping-pong pair is placed apart from the others.
    ctx["bindings"][fmt::format("{} np={}{}", r.point.backend, r.point.args.np,
                                r.point.pair == Pair::kInter ? " inter" : "")] = r.point.cores;
    write_file_atomically(path_, doc_.dump(2) + "\n");
  }

 private:
  std::string path_;
  nlohmann::json doc_;
};

}  // namespace

std::unique_ptr<Reporter> make_json_reporter(const std::string& path, nlohmann::json context) {
  return std::make_unique<JsonReporter>(path, std::move(context));
}

}  // namespace comops
