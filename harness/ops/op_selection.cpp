// --op and --reduce-op from the op descriptors: the accepted words, the help and the selection.
#include "harness/ops/op_selection.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "harness/ops/op_descriptors.hpp"

namespace comops {
namespace {

bool is_reduction(const OpDescriptor& d) { return !d.reduction.alias.empty(); }

// The reductions' --op words in the order of the descriptors: "reduce", "allreduce".
std::vector<std::string> reduce_words() {
  std::vector<std::string> words;
  for (const OpDescriptor& d : op_descriptors())
    if (is_reduction(d) && std::find(words.begin(), words.end(), d.reduction.word) == words.end())
      words.emplace_back(d.reduction.word);
  return words;
}

// "a", "a or b", "a, b or c".
std::string one_of(const std::vector<std::string>& words) {
  if (words.size() < 2) return words.empty() ? "" : words.front();
  return fmt::format("{} or {}", fmt::join(words.begin(), words.end() - 1, ", "), words.back());
}

}  // namespace

std::vector<std::string> op_words() {
  std::vector<std::string> words;
  for (const OpDescriptor& d : op_descriptors()) {
    if (d.app()) continue;  // --app
    if (is_reduction(d) && std::find(words.begin(), words.end(), d.reduction.word) == words.end())
      words.emplace_back(d.reduction.word);
    words.emplace_back(d.name);
  }
  words.emplace_back("comops");
  words.emplace_back("all");
  return words;
}

std::vector<std::string> reduce_op_words() {
  std::vector<std::string> words;
  for (const OpDescriptor& d : op_descriptors())
    if (is_reduction(d) && std::find(words.begin(), words.end(), d.reduction.alias) == words.end())
      words.emplace_back(d.reduction.alias);
  return words;
}

std::string op_option_help() {
  std::vector<std::string> words = op_words();
  const std::vector<std::string> by_reduce_op = reduce_words();
  for (std::string& w : words)
    if (std::find(by_reduce_op.begin(), by_reduce_op.end(), w) != by_reduce_op.end())
      w += " (by --reduce-op)";
  words[words.size() - 2] += " (the COMOPS paper's set, the default)";
  words.back() = "or " + words.back() + " (every op)";
  return fmt::format("Operations, comma-separated: {}", fmt::join(words, ", "));
}

std::string reduce_op_option_help() {
  std::vector<std::string> quoted;
  for (const std::string& w : reduce_words()) quoted.push_back("'" + w + "'");
  quoted.emplace_back("'comops'");
  return fmt::format("Reductions that {} and 'all' run: {}", fmt::join(quoted, ", "),
                     fmt::join(reduce_op_words(), ", "));
}

std::string windowed_op_names() {
  std::vector<std::string> names;
  for (const OpDescriptor& d : op_descriptors())
    if (d.windowed()) names.emplace_back(d.name);
  return one_of(names);
}

std::string pair_op_names() {
  std::vector<std::string> names;
  for (const OpDescriptor& d : op_descriptors())
    if (d.pair()) names.emplace_back(d.name);
  return fmt::format("{} and the one-sided ops", fmt::join(names, ", "));
}

std::string window_option_help() {
  return windowed_op_names() +
         ": messages in flight per window, 1 to 1048576 (osu_bw's window); each side's buffer "
         "holds W x size";
}

std::vector<OpKind> select_ops(const std::vector<std::string>& op_names,
                               const std::vector<std::string>& reduce_names) {
  const std::vector<std::string> aliases = reduce_op_words();
  for (const std::string& r : reduce_names)
    if (std::find(aliases.begin(), aliases.end(), r) == aliases.end())
      throw UsageError(fmt::format("unknown --reduce-op '{}' (expected {})", r, one_of(aliases)));
  // A reduction runs only when --reduce-op names its alias, whichever word picked it.
  const auto reduce_op_named = [&](const OpDescriptor& d) {
    return std::find(reduce_names.begin(), reduce_names.end(), d.reduction.alias) !=
           reduce_names.end();
  };
  const std::vector<std::string> by_reduce_op = reduce_words();
  std::vector<OpKind> picked;
  for (const std::string& n : op_names) {
    const bool every = n == "all", paper = n == "comops";
    const bool family =
        std::find(by_reduce_op.begin(), by_reduce_op.end(), n) != by_reduce_op.end();
    std::vector<OpKind> add;
    for (const OpDescriptor& d : op_descriptors()) {
      if (d.app()) {
        if (d.name == n)
          throw UsageError(
              fmt::format("'{}' is an application, not an op: run it with --app={}", n, n));
        continue;
      }
      bool take = d.name == n;
      if (every || paper)
        take = (every || d.comops_set()) && (!is_reduction(d) || reduce_op_named(d));
      else if (family)
        take = d.reduction.word == n && reduce_op_named(d);
      if (take) add.push_back(d.kind);
    }
    if (add.empty() && !every && !paper && !family)
      throw UsageError(
          fmt::format("unknown op '{}' (available: {})", n, fmt::join(op_words(), ", ")));
    for (OpKind k : add)
      if (std::find(picked.begin(), picked.end(), k) == picked.end()) picked.push_back(k);
  }
  if (picked.empty()) throw UsageError("--op names no operation");
  std::vector<OpKind> ordered;
  for (const OpDescriptor& d : op_descriptors())
    if (std::find(picked.begin(), picked.end(), d.kind) != picked.end()) ordered.push_back(d.kind);
  return ordered;
}

}  // namespace comops
