// GoogleTest main for MPI tests: failures and skips printed by every rank with its rank, exit code
// agreed: 1 if a test failed on any rank, else COMOPS_TEST_SKIP_EXIT (ctest's SKIP_RETURN_CODE, so
// ctest shows the program as Skipped, not Passed) if a test was skipped on any rank, else 0.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>

#include "harness/runtime/finalize.hpp"
#include "tests/gtest_skip.hpp"

namespace {

// Prints each failed assertion immediately, and each skipped test, prefixed with the MPI rank.
class RankFailurePrinter : public testing::EmptyTestEventListener {
 public:
  explicit RankFailurePrinter(int rank) : rank_(rank) {}
  void OnTestPartResult(const testing::TestPartResult& r) override {
    if (r.failed())
      std::fprintf(stderr, "[rank %d] %s:%d: failure\n%s\n", rank_,
                   r.file_name() ? r.file_name() : "?", r.line_number(), r.summary());
  }
  void OnTestEnd(const testing::TestInfo& info) override {
    if (info.result()->Failed())
      std::fprintf(stderr, "[rank %d] FAILED %s.%s\n", rank_, info.test_suite_name(), info.name());
    else if (info.result()->Skipped())
      std::fprintf(stderr, "[rank %d] SKIPPED %s.%s: %s\n", rank_, info.test_suite_name(),
                   info.name(), comops::test::skip_reason(*info.result()).c_str());
  }

 private:
  int rank_;
};

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  testing::InitGoogleTest(&argc, argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  auto& listeners = testing::UnitTest::GetInstance()->listeners();
  if (rank != 0) delete listeners.Release(listeners.default_result_printer());
  listeners.Append(new RankFailurePrinter(rank));
  const int rc = RUN_ALL_TESTS();
  // 2: a test failed, 1: a test was skipped, 0: all passed; the worst over the ranks decides.
  const int state = rc != 0 ? 2 : testing::UnitTest::GetInstance()->skipped_test_count() > 0;
  int agreed = 0;
  MPI_Allreduce(&state, &agreed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0 && agreed == 2 && state != 2)
    std::fprintf(stderr, "a test failed on another rank\n");
  if (rank == 0 && agreed == 1)
    std::fprintf(stderr, "a test was skipped (the SKIPPED lines above): exit %d for ctest\n",
                 COMOPS_TEST_SKIP_EXIT);
  comops::finalize_mpi();  // not MPI_Finalize: MPICH 4.0.2 over UCX TCP can hang there
  return agreed == 2 ? 1 : agreed == 1 ? COMOPS_TEST_SKIP_EXIT : 0;
}
