// The SWCC-Split-C paper's latency ratios (its section 3.1, the text with Figs 6-7) beside ours,
// computed from bench/swcc_state_latency's times: the definitions, the paper's numbers with
// where they come from, the text table and its JSON.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace swcc_state {

/// One ratio: numerator case (for the read and for the write) over a denominator case, taken at
/// the same block size, or from the sc run when `den_sc`.
struct RatioDef {
  const char* name;
  const char* read_num;
  const char* write_num;
  const char* den;
  bool den_sc;
  const char* paper;  ///< the paper's number, as a ratio
  const char* where;  ///< where in the paper, and its words
};

const std::vector<RatioDef>& ratio_defs();

/// Block sizes of the ratio table (the benchmark's cached block sizes).
inline const std::vector<std::size_t> kRatioBlocks = {8, 64, 4096};

/// The benchmark name of a case: state/<case>/<read|write>/<B|sc>.
std::string bench_name(const std::string& c, const std::string& op, std::size_t block, bool sc);

/// The ratio table from times in ns by benchmark name (missing times give "-" / null).
std::string ratio_table(const std::map<std::string, double>& ns);
nlohmann::json ratio_json(const std::map<std::string, double>& ns);

}  // namespace swcc_state
