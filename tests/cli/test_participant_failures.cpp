// A participant that throws, in every backend and in every phase of a point (setup, warm-up,
// timed loop, validation): the job ends promptly with exit 3 and one comops line saying which
// participant failed where, and the rows measured before are on disk.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <tuple>

#include "cli_runner.hpp"

namespace {

using namespace comops_test;  // comops(), scratch(), slurp(), lines(), kQuick ...

// A generous bound for a hang only: a failed run ends within about a second here.
constexpr const char* kHangBound = "timeout -s KILL 120";

const char* phase_text(const std::string& phase) {
  if (phase == "warmup") return "warm-up";
  if (phase == "timed") return "timed loop";
  return phase == "setup" ? "setup" : "validation";
}

// Point 0 (broadcast of 8 bytes) succeeds; the last participant throws in point 1 (64 bytes).
void expect_failure_after_one_row(const std::string& launch, const std::string& backend,
                                  const std::string& phase, int np) {
  const auto dir = scratch();
  const Outcome o =
      comops(fmt::format("--backend={} --op=broadcast --sizes=8,64 --np-bytes=8 --np={} -n 20 -w 2 "
                         "-r 2 --no-limits --progress=never --inject-throw={}@1 --json {}/r.json "
                         "--csv {}/r.csv",
                         backend, np, phase, dir.string(), dir.string()),
             launch);
  EXPECT_EQ(o.code, 3) << o.err;
  const std::string what =
      fmt::format("injected failure of participant {} in the {}", np - 1, phase_text(phase));
  EXPECT_EQ(lines(o.err), 1) << o.err;
  EXPECT_EQ(o.err.rfind("comops: error: ", 0), 0u) << o.err;
  EXPECT_NE(o.err.find(what), std::string::npos) << o.err << "\nexpected: " << what;
  const auto doc = nlohmann::json::parse(slurp(dir / "r.json"));
  ASSERT_EQ(doc["results"].size(), 1u) << doc.dump();
  EXPECT_EQ(doc["results"][0]["bytes"], 8);
  EXPECT_EQ(doc["results"][0]["wrong"], 0);
  const std::string csv = slurp(dir / "r.csv");
  EXPECT_EQ(lines(csv), 2) << csv;  // the header and the first row
}

class ParticipantFailure : public testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(ParticipantFailure, EndsTheRunWithExitThreeAndKeepsTheRowsBefore) {
  const auto& [backend, phase] = GetParam();
  expect_failure_after_one_row(kHangBound, backend, phase, 2);
}

INSTANTIATE_TEST_SUITE_P(
    EveryBackendAndPhase, ParticipantFailure,
    testing::Combine(testing::Values("mpi", "shm", "shmp", "hybrid", "swcc"),
                     testing::Values("setup", "warmup", "timed", "validation")),
    [](const auto& info) { return std::get<0>(info.param) + "_" + std::get<1>(info.param); });

// Under the user's own mpiexec, with a rank that is no participant of the point waiting.
TEST(ParticipantFailureUnderMpiexec, EveryRankEndsWithExitThree) {
  for (const char* backend : {"mpi", "shmp", "hybrid", "swcc"})
    expect_failure_after_one_row(fmt::format("{} {} -n 3", kHangBound, COMOPS_MPIEXEC), backend,
                                 "timed", 2);
}

TEST(ParticipantFailure, UnknownPhaseIsAUsageError) {
  expect_usage_error("--inject-throw=lunch", "invalid --inject-throw 'lunch'");
  expect_usage_error("--inject-throw=timed@x", "invalid --inject-throw 'timed@x'");
}

}  // namespace
