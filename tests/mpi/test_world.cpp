// World's agreement of what rank 0 alone did (on_root_agreed): when its work throws, every rank
// throws the error asked for with rank 0's exact message; the other ranks never run the work.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "comops/op.hpp"
#include "harness/runtime/world.hpp"

namespace comops {
namespace {

// The message every rank got from on_root_agreed<Error, Caught>(work), "" when none threw.
template <class Error, class Caught = std::exception, class Work>
std::string agreed_error(const World& world, Work&& work) {
  try {
    on_root_agreed<Error, Caught>(world, work);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(OnRootAgreed, EveryRankThrowsRootsMessage) {
  const World world(nullptr, nullptr);  // joins the MPI the test's main started
  int ran = 0;
  const std::string error = agreed_error<RuntimeError>(world, [&] {
    ++ran;
    throw std::runtime_error("cannot create out/: No space left on device");
  });
  EXPECT_EQ(error, "cannot create out/: No space left on device") << "rank " << world.rank();
  EXPECT_EQ(ran, world.is_root() ? 1 : 0) << "rank " << world.rank();
}

TEST(OnRootAgreed, AUsageErrorStaysOne) {
  const World world(nullptr, nullptr);
  bool usage = false;
  try {
    on_root_agreed<UsageError, UsageError>(
        world, [] { throw UsageError("--output-dir out is not empty"); });
  } catch (const UsageError& e) {
    usage = std::string(e.what()) == "--output-dir out is not empty";
  }
  EXPECT_TRUE(usage) << "rank " << world.rank();
}

TEST(OnRootAgreed, NoErrorNoThrow) {
  const World world(nullptr, nullptr);
  int ran = 0;
  EXPECT_EQ(agreed_error<RuntimeError>(world, [&] { ++ran; }), "") << "rank " << world.rank();
  EXPECT_EQ(ran, world.is_root() ? 1 : 0);
}

}  // namespace
}  // namespace comops
