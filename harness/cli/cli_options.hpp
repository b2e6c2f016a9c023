// The comops options as CLI11 defines them (names, help, groups, defaults), into the Config
// fields they fill directly and the texts that cli.cpp turns into the others.
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "comops/op.hpp"
#include "harness/ops/op_descriptors.hpp"
#include "harness/plan/config.hpp"

namespace comops {

/// One application's parameter options (--matmul-n, ...), each a list.
struct AppParamOptions {
  const OpDescriptor* app;
  std::vector<std::string> texts;           ///< per parameter: its list as given, or its default
  std::vector<const CLI::Option*> options;  ///< per parameter
};

/// The command line before it is checked: the CLI11 app, the Config whose fields options fill
/// directly, and the texts (with their defaults) of the others. The options point into it, so it
/// stays where it was made.
struct CommandLine {
  CLI::App app;
  Config config;
  std::string backend_names = "all", op_names = "comops", reduce_ops = "max";
  std::string np_text, sizes_text, min_text = "8", max_text = "8M", np_bytes_text = "800K";
  std::size_t factor = 2;
  std::string sync = "none", bind = "compact", placement = "packed";
  std::vector<std::string> variant_texts;
  std::string out_dir, app_names;
  std::vector<AppParamOptions> apps;  ///< every application's
  std::string inject_throw;           ///< hidden, for tests: PHASE[@POINT]
  std::string osu_sizes;              ///< -m [MIN:]MAX
  /// Each backend family's name and the options it added.
  std::vector<std::pair<std::string, std::vector<const CLI::Option*>>> family_options;

  CommandLine();
  CommandLine(const CommandLine&) = delete;
  CommandLine& operator=(const CommandLine&) = delete;
};

/// Every option of cl.app, the families' own included, in --help's order and groups.
void define_options(CommandLine& cl, std::vector<std::unique_ptr<BackendFamily>>& families);

}  // namespace comops
