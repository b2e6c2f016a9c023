// Which UCX transports a job's endpoints used, read from UCX's own log: at UCX_LOG_LEVEL=info,
// UCX (1.11 and later) logs each endpoint configuration it creates as a line
// "ep_cfg[N]: tag(sysv/memory cma/memory) rma(...) am(...)", each lane a transport/device.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace comops {

/// The distinct endpoint configurations in `log_text` ("tag(sysv/memory cma/memory) ..."),
/// sorted; empty when UCX logged none.
std::vector<std::string> ucx_endpoint_configs(const std::string& log_text);

/// The distinct transport names of those configurations ("cma", "self", "sysv", ...), sorted.
std::vector<std::string> ucx_transports(const std::vector<std::string>& endpoint_configs);

/// The UCX log of every file in `dir` whose name starts with "ucx.", concatenated ("" if none).
std::string read_ucx_logs(const std::string& dir);

/// {"endpoints": [...], "transports": [...]}, or null when UCX logged no endpoint (the MPI does
/// not use UCX, or the variant set UCX_LOG_LEVEL / UCX_LOG_FILE itself).
nlohmann::json ucx_usage(const std::string& log_text);

}  // namespace comops
