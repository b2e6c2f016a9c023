// The README against the binary: its option table names the options `comops --help` lists, with
// the same defaults, and its links stay inside the repository and lead to files that exist.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
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

// The README's option table (header "| option | meaning | default |"): names -> default cell,
// backticks removed. A cell holds no '|' of its own.
std::map<std::string, std::string> readme_options(const std::string& readme) {
  std::map<std::string, std::string> out;
  const auto at = readme.find("\n| option | meaning | default |\n");
  if (at == std::string::npos) {
    ADD_FAILURE() << "no option table in the README";
    return out;
  }
  std::istringstream lines(readme.substr(at + 1));
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

  const auto readme = readme_options(slurp(kRepo / "README.md"));
  for (const auto& [names, def] : help) {
    const auto it = readme.find(names);
    if (it == readme.end()) {
      ADD_FAILURE() << "--help has " << names << ", the README's option table does not";
      continue;
    }
    EXPECT_EQ(it->second, def) << "default of " << names << " (README, then --help)";
  }
  for (const auto& [names, def] : readme)
    EXPECT_TRUE(help.count(names))
        << "the README's option table has " << names << ", --help does not";
}

TEST(Readme, LinksStayInsideTheRepositoryAndExist) {
  const std::string readme = slurp(kRepo / "README.md");
  ASSERT_FALSE(readme.empty());
  EXPECT_EQ(readme.find("../"), std::string::npos) << "a path that leaves the repository";
  static const std::regex kLink(R"(\]\(([^)\s]+)\))");
  int links = 0;
  for (std::sregex_iterator it(readme.begin(), readme.end(), kLink), end; it != end; ++it) {
    std::string target = (*it)[1].str();
    if (target.rfind("http://", 0) == 0 || target.rfind("https://", 0) == 0) continue;
    target = target.substr(0, target.find('#'));
    if (target.empty()) continue;  // an anchor in the README itself
    ++links;
    const fs::path rel = fs::path(target).lexically_normal();
    EXPECT_FALSE(rel.is_absolute()) << target;
    EXPECT_NE(rel.begin()->string(), "..") << target;
    EXPECT_TRUE(fs::exists(kRepo / rel)) << target << " does not exist";
  }
  EXPECT_GT(links, 10);
}

}  // namespace
