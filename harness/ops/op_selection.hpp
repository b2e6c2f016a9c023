// What --op and --reduce-op accept and what they pick, from the op descriptors: every op's name,
// "reduce" and "allreduce" (the reductions of that kind --reduce-op names: the descriptors'
// reduction.word), "comops" (the paper's set, the default) and "all".
#pragma once

#include <string>
#include <vector>

#include "comops/op.hpp"

namespace comops {

/// The words --op accepts, in the order --help lists them: every op's name, each reduction word
/// ("reduce", "allreduce") just before the first reduction of its kind, then "comops" and "all".
std::vector<std::string> op_words();

/// The words --reduce-op accepts: the reductions' aliases ("max", "sum").
std::vector<std::string> reduce_op_words();

/// The --help texts of --op and --reduce-op.
std::string op_option_help();
std::string reduce_op_option_help();

/// The windowed ops (--window applies to them), "stream-bw or bibw" ("a, b or c"), and
/// --window's --help text, which names them.
std::string windowed_op_names();

/// The ops --pair applies to, in words: "pingpong, pingpong-nb, stream-bw and the one-sided ops".
std::string pair_op_names();
std::string window_option_help();

/// The ops that the words of --op pick, "reduce", "allreduce", "comops" and "all" taking the
/// reductions whose alias --reduce-op names, without repeats and in the order of the descriptors
/// (so tables come out the same however the list was written). Throws UsageError for an unknown
/// word or no op.
std::vector<OpKind> select_ops(const std::vector<std::string>& op_names,
                               const std::vector<std::string>& reduce_names);

}  // namespace comops
