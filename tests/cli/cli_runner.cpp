// Running the real comops binary from a test.
#include "cli_runner.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace comops_test {

namespace fs = std::filesystem;

namespace {

fs::path test_dir(const char* kind) {
  const auto* info = testing::UnitTest::GetInstance()->current_test_info();
  return fs::temp_directory_path() /
         fmt::format("comops-cli-{}-{}-{}", kind, ::getpid(), info ? info->name() : "none");
}

}  // namespace

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

fs::path scratch() {
  const fs::path dir = test_dir("scratch");
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

Outcome comops(const std::string& args, const std::string& env) {
  const fs::path dir = test_dir("io");
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

}  // namespace comops_test
