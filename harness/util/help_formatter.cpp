// The layout of comops --help (see help_formatter.hpp).
#include "harness/util/help_formatter.hpp"

#include <sstream>
#include <utility>

namespace comops {
namespace {

constexpr std::size_t kNameColumn = 28;  // the left column: "  -b,--min-bytes SIZE"

std::string wrapped(const std::string& text) {
  std::string out;
  for (const auto& line : wrap_lines(text, kHelpWidth)) out += line + "\n";
  return out;
}

}  // namespace

std::vector<std::string> wrap_lines(const std::string& text, std::size_t width) {
  std::vector<std::string> out;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    const auto lead = line.find_first_not_of(' ');
    if (lead == std::string::npos) {
      out.emplace_back();
      continue;
    }
    const std::string indent(lead, ' ');
    std::istringstream words(line.substr(lead));
    std::string current = indent, word;
    while (words >> word) {
      if (current.size() > indent.size() && current.size() + 1 + word.size() > width) {
        out.push_back(current);
        current = indent;
      }
      current += (current.size() > indent.size() ? " " : "") + word;
    }
    out.push_back(current);
  }
  return out;
}

HelpFormatter::HelpFormatter() { column_width(kNameColumn); }

std::string HelpFormatter::make_option(const CLI::Option* opt, bool is_positional) const {
  std::string out = "  " + make_option_name(opt, is_positional) + make_option_opts(opt);
  const auto lines = wrap_lines(make_option_desc(opt), kHelpWidth - column_width_);
  if (lines.empty()) return out + "\n";
  const std::string column(column_width_, ' ');
  out += out.size() >= column_width_ ? "\n" + column : std::string(column_width_ - out.size(), ' ');
  for (std::size_t i = 0; i < lines.size(); ++i) out += (i ? "\n" + column : "") + lines[i];
  return out + "\n";
}

std::string HelpFormatter::make_option_opts(const CLI::Option* opt) const {
  if (!opt->get_option_text().empty()) return " " + opt->get_option_text();
  if (opt->get_type_size() == 0 || opt->get_type_name().empty()) return "";
  return " " + get_label(opt->get_type_name());
}

std::string HelpFormatter::make_option_desc(const CLI::Option* opt) const {
  std::string def = opt->get_default_str();
  if (def.size() >= 2 && def.front() == '[' && def.back() == ']')  // a list: as it is typed
    def = def.substr(1, def.size() - 2);
  return def.empty() ? opt->get_description() : opt->get_description() + " (default: " + def + ")";
}

std::string HelpFormatter::make_group(std::string group, bool is_positional,
                                      std::vector<const CLI::Option*> opts) const {
  // CLI11 begins a group with an empty line and also ends every group but the last with one.
  std::string out = group + ":\n";
  for (const CLI::Option* opt : opts) out += make_option(opt, is_positional);
  return out;
}

std::string HelpFormatter::make_usage(const CLI::App* app, std::string name) const {
  return CLI::Formatter::make_usage(app, std::move(name)) + "\n";
}

std::string HelpFormatter::make_description(const CLI::App* app) const {
  return wrapped(app->get_description()) + "\n";
}

std::string HelpFormatter::make_footer(const CLI::App* app) const {
  return app->get_footer().empty() ? "" : wrapped(app->get_footer());
}

}  // namespace comops
