// GoogleTest main for a gtest program that ctest runs whole: exit COMOPS_TEST_SKIP_EXIT (ctest's
// SKIP_RETURN_CODE) when a test was skipped and none failed, so ctest shows the program as Skipped
// instead of Passed; each skipped test is named with its reason.
#include <gtest/gtest.h>

#include <cstdio>

#include "tests/gtest_skip.hpp"

namespace {

// Prints "SKIPPED <suite>.<test>: <reason>" for each skipped test.
class SkipPrinter : public testing::EmptyTestEventListener {
 public:
  void OnTestEnd(const testing::TestInfo& info) override {
    if (info.result()->Skipped())
      std::fprintf(stderr, "SKIPPED %s.%s: %s\n", info.test_suite_name(), info.name(),
                   comops::test::skip_reason(*info.result()).c_str());
  }
};

}  // namespace

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  testing::UnitTest::GetInstance()->listeners().Append(new SkipPrinter);
  const int rc = RUN_ALL_TESTS();
  if (rc == 0 && testing::UnitTest::GetInstance()->skipped_test_count() > 0) {
    std::fprintf(stderr, "a test was skipped (the SKIPPED lines above): exit %d for ctest\n",
                 COMOPS_TEST_SKIP_EXIT);
    return COMOPS_TEST_SKIP_EXIT;
  }
  return rc;
}
