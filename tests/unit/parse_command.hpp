// The unit tests' way to run the command-line parser: parse "comops <args...>" with a fresh set
// of backend families, and the one-line UsageError message a bad command line gives.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness/cli/cli.hpp"

namespace comops::test {

inline Config parse(std::vector<std::string> args) {
  args.insert(args.begin(), "comops");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  auto families = backend_families();
  return parse_command_line(static_cast<int>(args.size()), argv.data(), families);
}

// The UsageError message parse(args) throws; fails the test if it throws nothing or another kind.
inline std::string usage_error(const std::vector<std::string>& args) {
  try {
    parse(args);
  } catch (const UsageError& e) {
    return e.what();
  } catch (const EarlyExit& e) {
    ADD_FAILURE() << "EarlyExit instead of UsageError: " << e.text;
    return {};
  }
  ADD_FAILURE() << "no UsageError";
  return {};
}

}  // namespace comops::test
