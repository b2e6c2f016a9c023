// --app and the applications' parameter options (--matmul-n=LIST), from the app descriptors: the
// accepted names, the option names, and the expansion of the parameter lists into points.
#pragma once

#include <string>
#include <vector>

#include "comops/op.hpp"
#include "harness/ops/op_descriptors.hpp"

namespace comops {

/// The applications' names, in descriptor order ("matmul").
std::vector<std::string> app_words();

/// The --help text of --app.
std::string app_option_help();

/// The applications `names` picks (split at commas already), in descriptor order, each once.
/// Throws UsageError for an unknown name or an empty list.
std::vector<OpKind> select_apps(const std::vector<std::string>& names);

/// The option of an application's parameter: "--matmul-n".
std::string app_param_option(const OpDescriptor& app, const AppParam& param);

/// Every combination of the values of an application's parameters, the first parameter varying
/// slowest: texts[i] is parameter i's list as given ("128,256"). Throws UsageError (naming the
/// option) for a value that is not an integer within the parameter's range, or an empty list.
std::vector<AppParams> expand_app_params(const OpDescriptor& app,
                                         const std::vector<std::string>& texts);

/// "n=256" (parameters joined by spaces): how the tables and progress lines show a point's
/// parameters; "" for none.
std::string app_params_text(const AppParams& params);

}  // namespace comops
