// The latency-by-state cases of bench/swcc_state_latency (bench/swcc_state_cases.hpp), run the
// way the benchmark runs them (run_batch), at 3 ranks: every case's timed read and write must
// cost exactly the protocol messages written below (summed over the ranks, per access), read the
// exact value the setup left, and leave the exact value written. The expected counts are spelled
// out here, not read back from the case table; the table must agree with them.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "bench/swcc_state_cases.hpp"
#include "tests/mpi_world.hpp"

namespace swcc_state {
namespace {

using comops::test::world_size;

// {read, write} messages of one timed access, per case.
const std::map<std::string, std::pair<int, int>> kSwccExpected = {
    {"private", {0, 0}},
    {"home_fast", {0, 0}},
    {"home_entry", {0, 0}},
    {"home_shared", {0, 2}},
    {"home_modified", {2, 2}},
    {"remote_hit_shared", {0, 4}},
    {"remote_hit_modified", {0, 0}},
    {"remote_miss_clean", {2, 2}},
    {"remote_miss_inval", {2, 4}},
    {"remote_miss_flush", {4, 4}},
    {"upgrade", {0, 2}},
    {"first_touch", {2, 2}},
};
const std::map<std::string, std::pair<int, int>> kScExpected = {
    {"private", {0, 0}}, {"home", {0, 0}}, {"remote", {2, 2}}};

constexpr std::size_t kBatch = 3;  // blocks per batch: three accesses, each in its own block

// Runs every case of `cases` for both accesses on a fresh DSM each, and checks counts and values.
void check_all(std::size_t block, bool sc, const std::vector<StateCase>& cases,
               const std::map<std::string, std::pair<int, int>>& expected) {
  ASSERT_EQ(cases.size(), expected.size());
  for (const StateCase& c : cases) {
    ASSERT_EQ(expected.count(c.name), 1u) << c.name;
    const auto [want_read, want_write] = expected.at(c.name);
    EXPECT_EQ(c.messages[0], want_read) << c.name << ": the case table's read count";
    EXPECT_EQ(c.messages[1], want_write) << c.name << ": the case table's write count";
    for (Op op : {Op::kRead, Op::kWrite}) {
      const int want = op == Op::kRead ? want_read : want_write;
      swcc::Config cfg = state_config(block, sc, 2 * kBatch);
      cfg.watchdog_s = 20;
      swcc::with_dsm(MPI_COMM_WORLD, cfg, [&](auto& d) {
        // Two batches on one DSM: the second must not see the first's blocks.
        for (int batch = 0; batch < 2; ++batch) {
          const BatchResult r = run_batch(d, c, op, kBatch, MPI_COMM_WORLD);
          EXPECT_EQ(r.messages, want * static_cast<std::int64_t>(kBatch))
              << c.name << " " << op_name(op) << " block " << block << (sc ? " sc" : "")
              << " batch " << batch;
          EXPECT_EQ(r.wrong_state, 0)
              << c.name << " " << op_name(op) << " block " << block << (sc ? " sc" : "")
              << " batch " << batch << ": rank 0 did not find " << c.state;
          EXPECT_EQ(r.wrong, 0) << c.name << " " << op_name(op) << " block " << block
                                << (sc ? " sc" : "") << " batch " << batch;
        }
      });
    }
  }
}

TEST(SwccStateCases, EveryCachedCaseHasItsExactMessageCountAndValues) {
  ASSERT_EQ(world_size(), 3) << "the cases need exactly 3 ranks (mpiexec -n 3)";
  for (std::size_t block : {8, 64, 4096}) check_all(block, false, swcc_cases(), kSwccExpected);
}

TEST(SwccStateCases, EveryScCaseHasItsExactMessageCountAndValues) {
  ASSERT_EQ(world_size(), 3) << "the cases need exactly 3 ranks (mpiexec -n 3)";
  check_all(64, true, sc_cases(), kScExpected);
}

}  // namespace
}  // namespace swcc_state
