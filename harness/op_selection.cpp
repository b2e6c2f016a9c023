// --op and --reduce-op from the op descriptors: the accepted words, the help and the selection.
#include "harness/op_selection.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "harness/op_descriptor.hpp"

namespace comops {
namespace {

bool is_reduction(const OpDescriptor& d) { return !d.reduce_alias.empty(); }

// "a", "a or b", "a, b or c".
std::string one_of(const std::vector<std::string>& words) {
  if (words.size() < 2) return words.empty() ? "" : words.front();
  return fmt::format("{} or {}", fmt::join(words.begin(), words.end() - 1, ", "), words.back());
}

}  // namespace

std::vector<std::string> op_words() {
  std::vector<std::string> words;
  bool reduce_listed = false;
  for (const OpDescriptor& d : op_descriptors()) {
    if (is_reduction(d) && !reduce_listed) {
      words.emplace_back("reduce");
      reduce_listed = true;
    }
    words.emplace_back(d.name);
  }
  words.emplace_back("comops");
  words.emplace_back("all");
  return words;
}

std::vector<std::string> reduce_op_words() {
  std::vector<std::string> words;
  for (const OpDescriptor& d : op_descriptors())
    if (is_reduction(d)) words.emplace_back(d.reduce_alias);
  return words;
}

std::string op_option_help() {
  std::vector<std::string> words = op_words();
  for (std::string& w : words)
    if (w == "reduce") w += " (by --reduce-op)";
  words[words.size() - 2] += " (the COMOPS paper's set, the default)";
  words.back() = "or " + words.back() + " (every op)";
  return fmt::format("Operations, comma-separated: {}", fmt::join(words, ", "));
}

std::string reduce_op_option_help() {
  return fmt::format("Reductions that 'reduce', 'comops' and 'all' run: {}",
                     fmt::join(reduce_op_words(), ", "));
}

std::vector<OpKind> select_ops(const std::vector<std::string>& op_names,
                               const std::vector<std::string>& reduce_names) {
  std::vector<OpKind> reduces;
  for (const std::string& r : reduce_names) {
    const auto& all = op_descriptors();
    const auto d = std::find_if(all.begin(), all.end(), [&](const OpDescriptor& o) {
      return is_reduction(o) && o.reduce_alias == r;
    });
    if (d == all.end())
      throw UsageError(
          fmt::format("unknown --reduce-op '{}' (expected {})", r, one_of(reduce_op_words())));
    reduces.push_back(d->kind);
  }
  std::vector<OpKind> picked;
  for (const std::string& n : op_names) {
    std::vector<OpKind> add;
    if (n == "all" || n == "comops") {
      for (const OpDescriptor& d : op_descriptors())
        if (!is_reduction(d) && (n == "all" || d.comops_set)) add.push_back(d.kind);
      for (OpKind k : reduces)
        if (n == "all" || op_descriptor(k).comops_set) add.push_back(k);
    } else if (n == "reduce") {
      add = reduces;
    } else {
      for (const OpDescriptor& d : op_descriptors())
        if (d.name == n) add.push_back(d.kind);
      if (add.empty())
        throw UsageError(
            fmt::format("unknown op '{}' (available: {})", n, fmt::join(op_words(), ", ")));
    }
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
