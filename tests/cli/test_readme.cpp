// The documentation against the binary and the tree: the option table of docs/running.md names
// the options `comops --help` lists, with the same defaults; the links of the README, of docs/
// and of the pages they send readers to stay inside the repository and lead to files (and, for a
// Markdown file, to headings) that exist; the README stays a short front page that opens with the
// two commands CI runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.hpp"

namespace {

using namespace comops_test;  // comops(), slurp()
namespace fs = std::filesystem;

const fs::path kRepo = fs::canonical(fs::path(COMOPS_TEST_DIR) / ".." / "..");

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(' ');
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(' ') - first + 1);
}

std::string without_backticks(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), '`'), s.end());
  return s;
}

// An option's names, sorted and joined ("--min-bytes -b"), so "-b/--min-bytes" and
// "-b,--min-bytes" are one key.
std::string key(std::vector<std::string> names) {
  std::sort(names.begin(), names.end());
  std::string k;
  for (const auto& n : names) k += (k.empty() ? "" : " ") + n;
  return k;
}

// The option table of docs/running.md (header "| option | meaning | default |"): names ->
// default cell, backticks removed. A cell holds no '|' of its own.
std::map<std::string, std::string> doc_options(const std::string& doc) {
  std::map<std::string, std::string> out;
  const auto at = doc.find("\n| option | meaning | default |\n");
  if (at == std::string::npos) {
    ADD_FAILURE() << "no option table in docs/running.md";
    return out;
  }
  std::istringstream lines(doc.substr(at + 1));
  std::string line;
  std::getline(lines, line);  // header
  std::getline(lines, line);  // |---|---|---|
  while (std::getline(lines, line) && line.rfind("|", 0) == 0) {
    std::vector<std::string> cells;
    std::stringstream row(line.substr(1));
    for (std::string cell; std::getline(row, cell, '|');) cells.push_back(trim(cell));
    if (cells.size() != 3) {
      ADD_FAILURE() << "not three cells: " << line;
      continue;
    }
    std::vector<std::string> names;
    static const std::regex kName("-{1,2}[A-Za-z][-A-Za-z0-9]*");
    for (std::sregex_iterator it(cells[0].begin(), cells[0].end(), kName), end; it != end; ++it)
      names.push_back(it->str());
    EXPECT_FALSE(names.empty()) << line;
    EXPECT_TRUE(out.emplace(key(names), without_backticks(cells[2])).second) << "twice: " << line;
  }
  return out;
}

// `comops --help`: every option's names -> the "(default: ...)" that ends its description, or "".
// An option's entry starts with "  -"; deeper-indented lines continue its description.
std::map<std::string, std::string> help_options(const std::string& help) {
  std::map<std::string, std::string> out;
  std::vector<std::pair<std::vector<std::string>, std::string>> entries;
  std::istringstream lines(help);
  std::string line;
  bool in_entry = false;
  while (std::getline(lines, line)) {
    if (line.rfind("  -", 0) == 0) {
      std::istringstream words(line);
      std::string first;
      words >> first;
      std::vector<std::string> names;
      std::stringstream split(first);
      for (std::string n; std::getline(split, n, ',');) names.push_back(n);
      const auto gap = line.find("  ", 2 + first.size());
      entries.emplace_back(names, gap == std::string::npos ? "" : trim(line.substr(gap)));
      in_entry = true;
    } else if (in_entry && line.rfind("    ", 0) == 0) {
      auto& desc = entries.back().second;
      desc += (desc.empty() ? "" : " ") + trim(line);
    } else {
      in_entry = false;
    }
  }
  for (const auto& [names, desc] : entries) {
    std::string def;
    const auto at = desc.rfind("(default: ");
    if (at != std::string::npos && desc.back() == ')')
      def = desc.substr(at + 10, desc.size() - at - 11);
    out[key(names)] = def;
  }
  return out;
}

TEST(Readme, OptionTableMatchesHelp) {
  const Outcome o = comops("--help");
  ASSERT_EQ(o.code, 0) << o.err;
  auto help = help_options(o.out);
  ASSERT_GT(help.size(), 30u);
  EXPECT_EQ(help.erase("--help -h"), 1u);
  EXPECT_EQ(help.erase("--version"), 1u);
  EXPECT_EQ(help.at("--min-bytes -b"), "8");
  EXPECT_EQ(help.at("--output-dir -o"), "");

  const auto doc = doc_options(slurp(kRepo / "docs" / "running.md"));
  for (const auto& [names, def] : help) {
    const auto it = doc.find(names);
    if (it == doc.end()) {
      ADD_FAILURE() << "--help has " << names << ", the option table of docs/running.md does not";
      continue;
    }
    EXPECT_EQ(it->second, def) << "default of " << names << " (docs/running.md, then --help)";
  }
  for (const auto& [names, def] : doc)
    EXPECT_TRUE(help.count(names))
        << "the option table of docs/running.md has " << names << ", --help does not";
}

// The backends `comops --help` lists under --backend ("  NAME: description" lines of its entry)
// are the ones the `--backend` row of docs/running.md names, in the same order.
TEST(Readme, BackendRowNamesEveryBackendOfHelp) {
  const Outcome o = comops("--help");
  ASSERT_EQ(o.code, 0) << o.err;
  std::vector<std::string> help_names;
  std::istringstream lines(o.out.substr(o.out.find("  --backend LIST")));
  std::string line;
  std::getline(lines, line);
  static const std::regex kFamily(R"(^ {30}([a-z]+): )");
  for (std::smatch m; std::getline(lines, line) && line.rfind("  -", 0) != 0;)
    if (std::regex_search(line, m, kFamily)) help_names.push_back(m[1].str());
  ASSERT_GE(help_names.size(), 2u) << o.out;

  const std::string doc = slurp(kRepo / "docs" / "running.md");
  const auto at = doc.find("\n| `--backend` | ");
  ASSERT_NE(at, std::string::npos) << "no --backend row in docs/running.md";
  const std::string cell = doc.substr(at + 17, doc.find(" |", at + 17) - at - 17);
  std::vector<std::string> doc_names;
  static const std::regex kWord("`([a-z]+)`");
  for (std::sregex_iterator it(cell.begin(), cell.end(), kWord), end; it != end; ++it)
    if ((*it)[1].str() != "all") doc_names.push_back((*it)[1].str());
  EXPECT_EQ(doc_names, help_names) << "docs/running.md's --backend row: " << cell;
}

// Runs of whitespace as one space.
std::string squeezed(const std::string& text) {
  return trim(std::regex_replace(text, std::regex(R"(\s+)"), " "));
}

// The iteration rule is written once, in --help's footer; docs/running.md quotes it.
TEST(Readme, IterationRuleIsQuotedFromHelp) {
  const Outcome o = comops("--help");
  ASSERT_EQ(o.code, 0) << o.err;
  const auto from = o.out.find("\nDefault iterations: ");
  ASSERT_NE(from, std::string::npos) << o.out;
  const std::string rule = squeezed(o.out.substr(from, o.out.find("\n\n", from + 1) - from));
  const std::string doc = slurp(kRepo / "docs" / "running.md");
  const auto quote = doc.find("\n> Default iterations: ");
  ASSERT_NE(quote, std::string::npos) << "docs/running.md quotes no iteration rule";
  EXPECT_EQ(squeezed(doc.substr(quote + 3, doc.find('\n', quote + 1) - quote - 3)), rule);
}

// GitHub's anchor of a Markdown heading's text: lower case, every character but letters, digits,
// spaces, '-' and '_' dropped (bytes of non-ASCII letters such as µ kept), spaces as '-'.
std::string anchor_of(const std::string& heading) {
  std::string a;
  for (const char c : heading) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '-' || c == '_' || u >= 0x80)
      a += static_cast<char>(std::tolower(u));
    else if (c == ' ')
      a += '-';
  }
  return a;
}

// The anchors of a Markdown file's headings (outside fenced code blocks), a repeated one with
// GitHub's suffixes -1, -2, ...
std::set<std::string> anchors(const std::string& markdown) {
  std::set<std::string> out;
  std::map<std::string, int> seen;
  std::istringstream lines(markdown);
  bool fenced = false;
  static const std::regex kHeading(R"(^#{1,6} +(.*?) *#* *$)");
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("```", 0) == 0) fenced = !fenced;
    std::smatch m;
    if (fenced || !std::regex_match(line, m, kHeading)) continue;
    const std::string a = anchor_of(m[1].str());
    const int n = seen[a]++;
    out.insert(n == 0 ? a : a + "-" + std::to_string(n));
  }
  return out;
}

// The Markdown pages whose links are checked: the README, every page of docs/, and the pages the
// documentation moved text into.
std::vector<fs::path> checked_pages() {
  std::vector<fs::path> pages = {"README.md", "swcc/README.md", "results/README.md",
                                 "results/swcc-bench/NOTES.md", "results/apps/np2/NOTES.md"};
  std::vector<fs::path> docs;
  for (const auto& e : fs::directory_iterator(kRepo / "docs"))
    if (e.path().extension() == ".md") docs.push_back(fs::relative(e.path(), kRepo));
  std::sort(docs.begin(), docs.end());
  pages.insert(pages.end(), docs.begin(), docs.end());
  return pages;
}

// The links of page (a path from the repository root) that are not web addresses: each resolves,
// from the page's directory, to a path inside the repository that exists; an anchor into a
// Markdown file (the page itself for "#..." alone) names one of its headings. Returns the count.
int check_links(const fs::path& page) {
  const std::string text = slurp(kRepo / page);
  EXPECT_FALSE(text.empty()) << page;
  static const std::regex kLink(R"(\]\(([^)\s]+)\))");
  int links = 0;
  for (std::sregex_iterator it(text.begin(), text.end(), kLink), end; it != end; ++it) {
    const std::string target = (*it)[1].str();
    if (target.rfind("http://", 0) == 0 || target.rfind("https://", 0) == 0) continue;
    const auto hash = target.find('#');
    const std::string file = target.substr(0, hash);
    const std::string anchor = hash == std::string::npos ? "" : target.substr(hash + 1);
    const fs::path rel =
        file.empty() ? page : (page.parent_path() / fs::path(file)).lexically_normal();
    ++links;
    EXPECT_FALSE(fs::path(file).is_absolute()) << page << ": " << target;
    EXPECT_NE(rel.begin()->string(), "..") << page << ": " << target << " leaves the repository";
    if (!fs::exists(kRepo / rel)) {
      ADD_FAILURE() << page << ": " << target << " does not exist";
      continue;
    }
    if (!anchor.empty() && rel.extension() == ".md") {
      EXPECT_TRUE(anchors(slurp(kRepo / rel)).count(anchor))
          << page << ": " << target << ": no heading with that anchor in " << rel;
    }
  }
  return links;
}

TEST(Readme, LinksStayInsideTheRepositoryAndExist) {
  const std::string readme = slurp(kRepo / "README.md");
  ASSERT_FALSE(readme.empty());
  EXPECT_EQ(readme.find("../"), std::string::npos) << "a path that leaves the repository";
  EXPECT_GT(check_links("README.md"), 10);
}

TEST(Readme, DocsLinksStayInsideTheRepositoryAndExist) {
  int docs = 0;
  for (const fs::path& page : checked_pages()) {
    if (page == "README.md") continue;
    const int links = check_links(page);
    if (page.begin()->string() == "docs") {
      ++docs;
      EXPECT_GT(links, 0) << page << " links to nothing";
    }
  }
  EXPECT_GE(docs, 8) << "docs/ lost pages";
}

TEST(Readme, AnchorsAreGitHubs) {
  EXPECT_EQ(anchor_of("Timing method (`--sync`)"), "timing-method---sync");
  EXPECT_EQ(anchor_of("EM3D at 10 % remote edges (issue 10)"), "em3d-at-10--remote-edges-issue-10");
  EXPECT_EQ(anchor_of("track.py: regression tracking"), "trackpy-regression-tracking");
  const auto a = anchors("# A\n```sh\n# not a heading\n```\n## A\n## B c\n");
  EXPECT_EQ(a, (std::set<std::string>{"a", "a-1", "b-c"}));
}

// The README is a front page: under 200 lines, and its first sh block opens with the two
// commands CI extracts and runs, verbatim.
TEST(Readme, IsAShortFrontPageThatOpensWithTheTwoCommands) {
  const std::string readme = slurp(kRepo / "README.md");
  ASSERT_FALSE(readme.empty());
  EXPECT_LT(lines(readme), 200);
  const auto at = readme.find("```sh\n");
  ASSERT_NE(at, std::string::npos) << "no sh block";
  std::istringstream block(readme.substr(at + 6));
  std::string first, second;
  std::getline(block, first);
  std::getline(block, second);
  EXPECT_EQ(first.rfind("bash scripts/setup.sh && build/comops --output-dir results/latest", 0), 0u)
      << first;
  // The tests run as many at once as the machine has cores; RUN_SERIAL and PROCESSORS keep the
  // ones that need the whole machine alone.
  const std::string test_command =
      "bash scripts/setup.sh && ctest --test-dir build --output-on-failure -j \"$(nproc)\"";
  EXPECT_EQ(second.rfind(test_command, 0), 0u) << second;
}

}  // namespace
