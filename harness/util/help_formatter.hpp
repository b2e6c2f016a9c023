// --help at kHelpWidth columns: CLI11's layout with descriptions wrapped beside the option
// names, each default written into its description, and no "Excludes:" / "Needs:" lists.
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
#include <string>
#include <vector>

namespace comops {

/// The widest line --help prints.
inline constexpr std::size_t kHelpWidth = 100;

/// Greedy word wrap of every line of `text` to `width` columns. A line's leading spaces are kept
/// on its continuation lines; an empty line stays empty; a word longer than `width` is not cut.
std::vector<std::string> wrap_lines(const std::string& text, std::size_t width);

/// CLI11's Formatter for comops: option name and value placeholder in the left column, the
/// description wrapped in the right one and ending in "(default: X)" when the option has a
/// default (a list's without CLI11's brackets); description and footer wrapped at kHelpWidth; one
/// empty line between the groups. Exclusions are stated in the descriptions instead of CLI11's
/// "Excludes:" lists, which pushed the descriptions to the next line.
class HelpFormatter final : public CLI::Formatter {
 public:
  HelpFormatter();
  std::string make_option(const CLI::Option* opt, bool is_positional) const override;
  std::string make_option_opts(const CLI::Option* opt) const override;
  std::string make_option_desc(const CLI::Option* opt) const override;
  std::string make_group(std::string group, bool is_positional,
                         std::vector<const CLI::Option*> opts) const override;
  std::string make_usage(const CLI::App* app, std::string name) const override;
  std::string make_description(const CLI::App* app) const override;
  std::string make_footer(const CLI::App* app) const override;
};

}  // namespace comops
