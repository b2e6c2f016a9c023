// The command line (CLI11): options, their documentation, and their translation into a Config.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "comops/op.hpp"
#include "harness/plan/config.hpp"

namespace comops {

/// Thrown for --help and --version: print text to stdout and exit 0.
struct EarlyExit {
  std::string text;
};

/// Parses argv into a Config. Backend families add their own options. Throws UsageError (a
/// one-line message) for bad input and EarlyExit for --help / --version.
Config parse_command_line(int argc, char** argv,
                          std::vector<std::unique_ptr<BackendFamily>>& families);

}  // namespace comops
