// The documentation against the op descriptors (harness/ops/op_descriptors.cpp), the one place that
// defines an op: docs/metrics.md has a section per descriptor that quotes its definition verbatim
// and names its bandwidth factor, and no section for an op that does not exist; the --op row of
// docs/running.md's option table says what the words that select several ops mean and names no
// word --op does not take; the README's operations list names the COMOPS set and the
// applications, in the descriptors' order, and leaves the other ops to --help.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "comops/op.hpp"
#include "harness/ops/op_descriptors.hpp"
#include "harness/ops/op_selection.hpp"
#include "op_args.hpp"

namespace comops {
namespace {

namespace fs = std::filesystem;

const fs::path kRepo = fs::path(COMOPS_SOURCE_DIR);

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The "## " sections of a Markdown page, outside fenced code blocks: heading text -> body (the
// lines up to the next "## " heading; deeper headings stay in the body).
std::map<std::string, std::string> sections(const std::string& markdown) {
  std::map<std::string, std::string> out;
  std::istringstream lines(markdown);
  std::string* body = nullptr;
  bool fenced = false;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("```", 0) == 0) fenced = !fenced;
    if (!fenced && line.rfind("## ", 0) == 0) {
      const std::string heading = line.substr(3);
      EXPECT_FALSE(out.count(heading)) << "section twice: " << heading;
      body = &out[heading];
      continue;
    }
    if (body) *body += line + "\n";
  }
  return out;
}

// The names of the ops that the sections are about: headings that are one code span, `NAME`.
std::set<std::string> op_headings(const std::map<std::string, std::string>& secs) {
  std::set<std::string> names;
  static const std::regex kOp("`([a-z0-9-]+)`");
  for (const auto& [heading, body] : secs) {
    std::smatch m;
    if (std::regex_match(heading, m, kOp)) names.insert(m[1].str());
  }
  return names;
}

// The factor a section states ("Bandwidth factor: `np - 1`."), for args: the participants, the
// window of the windowed ops, a number, or a product of them ("2 x W").
double stated_factor(const std::string& token, const Args& a) {
  if (const auto times = token.find(" x "); times != std::string::npos)
    return stated_factor(token.substr(0, times), a) * stated_factor(token.substr(times + 3), a);
  if (token == "np - 1") return a.np - 1;
  if (token == "W") return a.window;
  std::size_t used = 0;
  const double v = std::stod(token, &used);
  EXPECT_EQ(used, token.size()) << "not a factor: " << token;
  return v;
}

// The heading of an op's section: its name as one code span.
std::string heading_of(std::string_view name) {
  std::string h = "`";
  h.append(name);
  h += '`';
  return h;
}

const std::map<std::string, std::string>& metrics() {
  static const auto secs = sections(slurp(kRepo / "docs" / "metrics.md"));
  return secs;
}

TEST(Metrics, EveryDescriptorHasItsSection) {
  const auto& secs = metrics();
  ASSERT_FALSE(secs.empty()) << "docs/metrics.md is missing or has no sections";
  std::set<std::string> described;
  for (const OpDescriptor& d : op_descriptors()) {
    described.insert(std::string(d.name));
    EXPECT_TRUE(secs.count(heading_of(d.name)))
        << "docs/metrics.md has no section ## `" << d.name << "`";
  }
  EXPECT_EQ(op_headings(secs), described) << "a section of docs/metrics.md for an op that is gone";
}

TEST(Metrics, EverySectionQuotesItsDescriptorsDefinition) {
  for (const OpDescriptor& d : op_descriptors()) {
    const auto it = metrics().find(heading_of(d.name));
    if (it == metrics().end()) continue;  // EveryDescriptorHasItsSection says so
    std::string quote = "\n> ", body = "\n";
    quote.append(d.definition);
    quote += '\n';
    body += it->second;
    EXPECT_NE(body.find(quote), std::string::npos)
        << "the section of " << d.name << " in docs/metrics.md does not quote its definition, "
        << "one line starting with '> ':\n"
        << d.definition;
  }
}

TEST(Metrics, EverySectionStatesItsDescriptorsBandwidthFactor) {
  static const std::regex kFactor("\nBandwidth factor: `([^`]+)`\\.\n");
  for (const OpDescriptor& d : op_descriptors()) {
    const auto it = metrics().find(heading_of(d.name));
    if (it == metrics().end()) continue;
    std::smatch m;
    std::string body = "\n";
    body += it->second;
    if (!std::regex_search(body, m, kFactor)) {
      ADD_FAILURE() << "the section of " << d.name << " states no 'Bandwidth factor: `...`.'";
      continue;
    }
    const std::string token = m[1].str();
    bool agrees = true;  // one failure per op
    for (int np : {2, 3, 4, 7})
      for (int window : {1, 5, 64})
        for (std::size_t count : {std::size_t{1}, std::size_t{1024}, std::size_t{1} << 20}) {
          const Args a = test::make_args(d.kind, np, count, 0, window);
          if (!agrees) continue;
          EXPECT_DOUBLE_EQ(d.bw_factor(a), stated_factor(token, a))
              << d.name << ": docs/metrics.md says factor `" << token << "`; the descriptor differs"
              << " at np " << np << ", window " << window << ", " << count << " elements";
          agrees = d.bw_factor(a) == stated_factor(token, a);
        }
  }
}

// The words in code spans (`WORD`) of the meaning cell of the --op row of docs/running.md.
std::vector<std::string> op_row_words() {
  const std::string doc = slurp(kRepo / "docs" / "running.md");
  const auto at = doc.find("\n| `--op` | ");
  if (at == std::string::npos) {
    ADD_FAILURE() << "no --op row in docs/running.md";
    return {};
  }
  const std::string row = doc.substr(at + 1, doc.find('\n', at + 1) - at - 1);
  const std::string cell = row.substr(std::string("| `--op` | ").size());
  std::vector<std::string> words;
  static const std::regex kWord("`([a-z0-9-]+)`");
  for (std::sregex_iterator it(cell.begin(), cell.end(), kWord), end; it != end; ++it)
    words.push_back((*it)[1].str());
  return words;
}

// The row says what the words that select several ops mean, and names no word --op does not
// take; the ops themselves it leaves to --help (a new op changes no line of running.md).
TEST(Metrics, OpRowNamesTheSelectionWords) {
  const std::vector<std::string> words = op_row_words();
  const std::vector<std::string> accepted = op_words();
  std::set<std::string> selection = {"comops", "all"};
  for (const OpDescriptor& d : op_descriptors())
    if (!d.reduction.word.empty()) selection.insert(std::string(d.reduction.word));
  for (const std::string& w : selection)
    EXPECT_NE(std::find(words.begin(), words.end(), w), words.end())
        << "docs/running.md's --op row does not say what `" << w << "` selects";
  for (const std::string& w : words)
    EXPECT_TRUE(w == "--reduce-op" ||
                std::find(accepted.begin(), accepted.end(), w) != accepted.end())
        << "docs/running.md's --op row names `" << w << "`, which --op does not take";
}

// The op names ([`NAME`](...)) of the README's operations row that starts with `start`.
std::vector<std::string> readme_ops(const std::string& readme, const std::string& start) {
  const auto at = readme.find("\n| " + start);
  if (at == std::string::npos) {
    ADD_FAILURE() << "the README's operations list has no row '" << start << "'";
    return {};
  }
  const std::string row = readme.substr(at + 1, readme.find('\n', at + 1) - at - 1);
  std::vector<std::string> names;
  static const std::regex kName(R"(\[`([a-z0-9-]+)`\])");
  for (std::sregex_iterator it(row.begin(), row.end(), kName), end; it != end; ++it)
    names.push_back((*it)[1].str());
  return names;
}

TEST(Metrics, ReadmeOperationsListIsTheDescriptors) {
  const std::string readme = slurp(kRepo / "README.md");
  std::vector<std::string> comops, apps;
  for (const OpDescriptor& d : op_descriptors())
    if (d.app() || d.comops_set()) (d.app() ? apps : comops).emplace_back(d.name);
  EXPECT_EQ(readme_ops(readme, "the COMOPS set"), comops);
  EXPECT_EQ(readme_ops(readme, "applications"), apps);
  // The ops beside them are --help's to list: the README names none of them as a link.
  EXPECT_EQ(readme_ops(readme, "beside it"), std::vector<std::string>{});
}

}  // namespace
}  // namespace comops
