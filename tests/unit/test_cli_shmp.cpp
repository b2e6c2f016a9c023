// The shmp family on the command line: --backend=all and the default include it, its options
// (--shmp-scheme, --shmp-window-max) reach its backends, and bad values are one-line usage errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "comops/op.hpp"
#include "harness/cli/cli.hpp"
#include "parse_command.hpp"

namespace comops {
namespace {

using test::parse;
using test::usage_error;

void expect_usage_error(const std::vector<std::string>& args, const std::string& substring) {
  const std::string msg = usage_error(args);
  EXPECT_NE(msg.find(substring), std::string::npos) << "message: " << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos) << "not one line: " << msg;
}

// The configured backends of the families --backend selects, after parsing `args`.
std::vector<std::unique_ptr<Backend>> backends_of(std::vector<std::string> args) {
  args.insert(args.begin(), "comops");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  auto families = backend_families();
  const Config c = parse_command_line(static_cast<int>(args.size()), argv.data(), families);
  std::vector<std::unique_ptr<Backend>> out;
  for (auto& f : families)
    if (std::find(c.backends.begin(), c.backends.end(), f->name()) != c.backends.end())
      for (auto& b : f->create()) out.push_back(std::move(b));
  return out;
}

std::vector<std::string> labels(const std::vector<std::unique_ptr<Backend>>& backends) {
  std::vector<std::string> out;
  for (const auto& b : backends) out.push_back(b->label());
  return out;
}

TEST(CliShmp, AllAndTheDefaultRunTheProcessTeamBesideTheThreads) {
  for (const auto& args : std::vector<std::vector<std::string>>{{"--backend=all"}, {}}) {
    const Config c = parse(args);
    const auto at = [&](const char* name) {
      return std::find(c.backends.begin(), c.backends.end(), name) - c.backends.begin();
    };
    ASSERT_LT(at("shmp"), static_cast<long>(c.backends.size()));
    EXPECT_EQ(at("shmp"), at("shm") + 1);  // the process team right after the thread team
  }
  const auto all = labels(backends_of({"--backend=all"}));
  for (const char* label : {"shm-staged", "shm-direct", "shmp-staged", "shmp-direct"})
    EXPECT_NE(std::find(all.begin(), all.end(), label), all.end()) << label;
}

TEST(CliShmp, SchemesAndWindowMaxReachTheBackends) {
  const auto both = backends_of({"--backend=shmp"});
  EXPECT_EQ(labels(both), (std::vector<std::string>{"shmp-staged", "shmp-direct"}));
  for (const auto& b : both) {
    EXPECT_EQ(b->participants(), Participants::kProcesses);
    EXPECT_TRUE(b->node_local());
    EXPECT_EQ(b->context().at("window_max_bytes"), std::size_t{4} << 30);  // the default, 4G
  }
  const auto direct =
      backends_of({"--backend=shmp", "--shmp-scheme=direct", "--shmp-window-max=3M"});
  ASSERT_EQ(labels(direct), (std::vector<std::string>{"shmp-direct"}));
  EXPECT_EQ(direct[0]->context().at("window_max_bytes"), 3u << 20);
  EXPECT_EQ(backends_of({"--backend=shmp", "--shmp-window-max=8192"})[0]->context().at(
                "window_max_bytes"),
            8192u);
  EXPECT_EQ(
      backends_of({"--backend=shmp", "--shmp-window-max=1tb"})[0]->context().at("window_max_bytes"),
      std::size_t{1} << 40);
}

TEST(CliShmp, BadValuesAreOneLineUsageErrors) {
  expect_usage_error({"--backend=shmp", "--shmp-window-max=lots"},
                     "--shmp-window-max: invalid size 'lots'");
  expect_usage_error({"--backend=shmp", "--shmp-window-max=4Q"},
                     "--shmp-window-max: invalid size '4Q'");
  expect_usage_error({"--backend=shmp", "--shmp-window-max=99999999999999999999"}, "invalid size");
  expect_usage_error({"--backend=shmp", "--shmp-window-max=1K"},
                     "--shmp-window-max must be at least 4096 bytes (one page), not 1024");
  expect_usage_error({"--backend=shmp", "--shmp-scheme=fast"},
                     "--shmp-scheme: unknown shm scheme 'fast' (expected staged or direct)");
  expect_usage_error({"--backend=mpi", "--shmp-window-max=1G"},
                     "--shmp-window-max applies to the shmp backend, which --backend does not "
                     "select");
  // The thread team's --scheme is its own: it does not select the process team's schemes.
  expect_usage_error({"--backend=shmp", "--scheme=direct"},
                     "--scheme applies to the shm backend, which --backend does not select");
}

}  // namespace
}  // namespace comops
