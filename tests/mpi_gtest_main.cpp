// GoogleTest main for MPI tests: failures printed by every rank with its rank, exit code agreed.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>

#include "harness/finalize.hpp"

namespace {

// Prints each failed assertion immediately, prefixed with the MPI rank.
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
  int rc = RUN_ALL_TESTS();
  int agreed = 0;
  MPI_Allreduce(&rc, &agreed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0 && agreed != rc) std::fprintf(stderr, "a test failed on another rank\n");
  comops::finalize_mpi();  // not MPI_Finalize: MPICH 4.0.2 over UCX TCP can hang there
  return agreed;
}
