// Reading UCX's endpoint configuration lines (ep_cfg) back from its log files.
#include "harness/launch/ucx_log.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace comops {

std::vector<std::string> ucx_endpoint_configs(const std::string& log_text) {
  static const std::regex line(R"(ep_cfg\[\d+\]: ([^\n]*[^\s]))");
  std::set<std::string> configs;
  for (auto it = std::sregex_iterator(log_text.begin(), log_text.end(), line);
       it != std::sregex_iterator(); ++it)
    configs.insert((*it)[1].str());
  return {configs.begin(), configs.end()};
}

std::vector<std::string> ucx_transports(const std::vector<std::string>& endpoint_configs) {
  // A lane is "transport/device" inside a "kind(...)" group.
  static const std::regex lane(R"(([A-Za-z0-9_]+)/[^\s()]+)");
  std::set<std::string> names;
  for (const auto& config : endpoint_configs)
    for (auto it = std::sregex_iterator(config.begin(), config.end(), lane);
         it != std::sregex_iterator(); ++it)
      names.insert((*it)[1].str());
  return {names.begin(), names.end()};
}

std::string read_ucx_logs(const std::string& dir) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    if (entry.path().filename().string().rfind("ucx.", 0) == 0) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  std::string text;
  for (const auto& f : files) {
    std::ifstream in(f);
    std::stringstream s;
    s << in.rdbuf();
    text += s.str();
  }
  return text;
}

nlohmann::json ucx_usage(const std::string& log_text) {
  const auto configs = ucx_endpoint_configs(log_text);
  if (configs.empty()) return nullptr;
  return {{"endpoints", configs}, {"transports", ucx_transports(configs)}};
}

}  // namespace comops
