// The golden list of operations: every op comops has, in the order a sweep runs them and --help
// lists them, with the kind each must be. The one place the tests name every op; the tests derive
// their expected op lists, --op words and help texts from it. A new op is one line here.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "harness/ops/op_descriptors.hpp"

namespace comops::test {

struct GoldenOp {
  std::string_view name;
  Timing timing;
  OpSet set;
  Rooting rooting;
  Payload payload;
  ReductionNames reduction;
  int min_np;
};

inline constexpr Timing kAll = Timing::kCollective;
inline constexpr Timing kRtt = Timing::kRoundTrip;
inline constexpr Timing kWin = Timing::kWindow;
inline constexpr Timing kOne = Timing::kOrigin;
inline constexpr OpSet kPaper = OpSet::kComops;
inline constexpr OpSet kExtra = OpSet::kExtra;
inline constexpr Rooting kRoot = Rooting::kRooted;
inline constexpr Rooting kNoRoot = Rooting::kNone;
inline constexpr Payload kData = Payload::kSized;
inline constexpr Payload kNoData = Payload::kNone;

// clang-format off
inline const std::vector<GoldenOp> kGoldenOps = {
    {"pingpong",      kRtt, kPaper, kNoRoot, kData,   {},                     2},
    {"broadcast",     kAll, kPaper, kRoot,   kData,   {},                     1},
    {"reduce-max",    kAll, kPaper, kRoot,   kData,   {"reduce", "max"},      1},
    {"reduce-sum",    kAll, kPaper, kRoot,   kData,   {"reduce", "sum"},      1},
    {"gather",        kAll, kPaper, kRoot,   kData,   {},                     1},
    {"scatter",       kAll, kPaper, kRoot,   kData,   {},                     1},
    {"alltoall",      kAll, kExtra, kNoRoot, kData,   {},                     1},
    {"allgather",     kAll, kExtra, kNoRoot, kData,   {},                     1},
    {"barrier",       kAll, kPaper, kNoRoot, kNoData, {},                     1},
    {"allreduce-max", kAll, kExtra, kNoRoot, kData,   {"allreduce", "max"},   1},
    {"allreduce-sum", kAll, kExtra, kNoRoot, kData,   {"allreduce", "sum"},   1},
    {"reduce-scatter-max", kAll, kExtra, kNoRoot, kData, {"reduce-scatter", "max"}, 1},
    {"reduce-scatter-sum", kAll, kExtra, kNoRoot, kData, {"reduce-scatter", "sum"}, 1},
    {"put",           kOne, kExtra, kNoRoot, kData,   {},                     2},
    {"get",           kOne, kExtra, kNoRoot, kData,   {},                     2},
    {"put-bw",        kOne, kExtra, kNoRoot, kData,   {},                     2},
    {"get-bw",        kOne, kExtra, kNoRoot, kData,   {},                     2},
    {"put-fence",     kOne, kExtra, kNoRoot, kData,   {},                     2},
    {"get-fence",     kOne, kExtra, kNoRoot, kData,   {},                     2},
    {"put-fence-bw",  kOne, kExtra, kNoRoot, kData,   {},                     2},
    {"get-fence-bw",  kOne, kExtra, kNoRoot, kData,   {},                     2},
    {"pingpong-nb",   kRtt, kExtra, kNoRoot, kData,   {},                     2},
    {"stream-bw",     kWin, kExtra, kNoRoot, kData,   {},                     2},
    {"bibw",          kWin, kExtra, kNoRoot, kData,   {},                     2},
};
// clang-format on

/// The applications (--app), after the ops; every backend runs them.
inline const std::vector<std::string> kGoldenApps = {"matmul", "em3d"};

/// The golden ops' names, in order.
inline std::vector<std::string> golden_names() {
  std::vector<std::string> names;
  for (const GoldenOp& g : kGoldenOps) names.emplace_back(g.name);
  return names;
}

}  // namespace comops::test
