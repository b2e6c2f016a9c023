// Running the real comops binary from a test.
#include "cli_runner.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

namespace comops_test {

namespace fs = std::filesystem;

namespace {

constexpr const char* kKinds[] = {"scratch", "io", "hosts"};

// Removes the running test's paths (test_path) when it passed; when it failed, keeps them and
// says where, so that a failure can be looked into and a passing suite leaves nothing in /tmp.
class TestPathCleanup : public testing::EmptyTestEventListener {
 public:
  void OnTestEnd(const testing::TestInfo& info) override {
    std::vector<fs::path> kept;
    for (const char* kind : kKinds) {
      const fs::path p = test_path(kind);
      std::error_code ec;
      if (!fs::exists(p, ec)) continue;
      if (info.result()->Failed())
        kept.push_back(p);
      else
        fs::remove_all(p, ec);
    }
    for (const auto& p : kept)
      std::fprintf(stderr, "%s.%s failed: its files are kept in %s\n", info.test_suite_name(),
                   info.name(), p.c_str());
  }
};

[[maybe_unused]] const bool kCleanupRegistered = [] {
  testing::UnitTest::GetInstance()->listeners().Append(new TestPathCleanup);
  return true;
}();

}  // namespace

fs::path test_path(const char* kind) {
  const auto* info = testing::UnitTest::GetInstance()->current_test_info();
  std::string test = info ? info->name() : "none";
  std::replace(test.begin(), test.end(), '/', '_');  // a parameterised test's "Name/3"
  return fs::temp_directory_path() / fmt::format("comops-cli-{}-{}-{}", kind, ::getpid(), test);
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

fs::path scratch() {
  const fs::path dir = test_path("scratch");
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

Outcome comops(const std::string& args, const std::string& env) {
  const fs::path dir = test_path("io");
  fs::create_directories(dir);
  const std::string cmd = fmt::format("{} {} {} >{} 2>{} </dev/null", env, COMOPS_BINARY, args,
                                      (dir / "out").string(), (dir / "err").string());
  const int status = std::system(cmd.c_str());
  Outcome o;
  o.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  o.out = slurp(dir / "out");
  o.err = slurp(dir / "err");
  return o;
}

int lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

void expect_usage_error(const std::string& args, const std::string& message) {
  const Outcome o = comops(args);
  EXPECT_EQ(o.code, 2) << args << "\nstderr: " << o.err;
  EXPECT_EQ(lines(o.err), 1) << o.err;
  EXPECT_NE(o.err.find("comops: error: " + message), std::string::npos)
      << "stderr: " << o.err << "\nexpected: " << message;
}

std::string two_node_mpiexec() {
  // Outside scratch(), which empties the test's directory.
  const fs::path hosts = test_path("hosts");
  std::ofstream(hosts) << "nodea:2\nnodeb:2\n";
  return fmt::format("{} -f {} -launcher ssh -launcher-exec {}/local_launcher.sh -n 4",
                     COMOPS_MPIEXEC, hosts.string(), COMOPS_TEST_DIR);
}

}  // namespace comops_test
