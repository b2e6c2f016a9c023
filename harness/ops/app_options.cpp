// --app and the applications' parameter options, from the app descriptors.
#include "harness/ops/app_options.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "harness/util/comma_list.hpp"

namespace comops {
namespace {

std::int64_t parse_value(const std::string& option, const AppParam& p, const std::string& s) {
  std::size_t used = 0;
  long long v = 0;
  try {
    v = std::stoll(s, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != s.size() || v < p.min || v > p.max)
    throw UsageError(fmt::format("invalid {} value '{}' (expected an integer from {} to {})",
                                 option, s, p.min, p.max));
  return v;
}

}  // namespace

std::vector<std::string> app_words() {
  std::vector<std::string> words;
  for (const OpDescriptor& d : op_descriptors())
    if (d.app()) words.emplace_back(d.name);
  return words;
}

std::string app_option_help() {
  return fmt::format(
      "Applications to run, comma-separated: {}; each runs once per --np and combination of its "
      "parameters (the --APP-PARAM options), on every selected backend, checked exactly against "
      "a serial reference. Without --op only the applications run",
      fmt::join(app_words(), ", "));
}

std::vector<OpKind> select_apps(const std::vector<std::string>& names) {
  std::vector<OpKind> picked;
  for (const std::string& n : names) {
    const auto& all = op_descriptors();
    const auto it = std::find_if(all.begin(), all.end(),
                                 [&](const OpDescriptor& d) { return d.app() && d.name == n; });
    if (it == all.end())
      throw UsageError(
          fmt::format("unknown app '{}' (available: {})", n, fmt::join(app_words(), ", ")));
    if (std::find(picked.begin(), picked.end(), it->kind) == picked.end())
      picked.push_back(it->kind);
  }
  if (picked.empty()) throw UsageError("--app names no application");
  std::vector<OpKind> ordered;
  for (const OpDescriptor& d : op_descriptors())
    if (std::find(picked.begin(), picked.end(), d.kind) != picked.end()) ordered.push_back(d.kind);
  return ordered;
}

std::string app_param_option(const OpDescriptor& app, const AppParam& param) {
  return fmt::format("--{}-{}", app.name, param.name);
}

std::vector<AppParams> expand_app_params(const OpDescriptor& app,
                                         const std::vector<std::string>& texts) {
  std::vector<AppParams> points{AppParams{}};
  for (std::size_t i = 0; i < app.params.size(); ++i) {
    const AppParam& p = app.params[i];
    const std::string option = app_param_option(app, p);
    std::vector<std::int64_t> values;
    const std::string text = i < texts.size() ? texts[i] : std::string(p.defaults);
    for (const std::string& s : comma_items(text)) {
      const std::int64_t v = parse_value(option, p, s);
      if (std::find(values.begin(), values.end(), v) == values.end()) values.push_back(v);
    }
    if (values.empty()) throw UsageError(fmt::format("{} names no value", option));
    std::vector<AppParams> next;
    for (const AppParams& base : points)
      for (std::int64_t v : values) {
        AppParams params = base;
        params.emplace_back(std::string(p.name), v);
        next.push_back(std::move(params));
      }
    points = std::move(next);
  }
  return points;
}

std::string app_params_text(const AppParams& params) {
  std::string s;
  for (const auto& [name, value] : params)
    s += fmt::format("{}{}={}", s.empty() ? "" : " ", name, value);
  return s;
}

}  // namespace comops
