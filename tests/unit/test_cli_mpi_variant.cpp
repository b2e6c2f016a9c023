// --mpi-variant on the command line: the checks around the launch layer's parsing
// (test_mpi_variant.cpp), with the exact one-line messages.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "comops/op.hpp"
#include "parse_command.hpp"

namespace comops {
namespace {

using Env = std::vector<std::pair<std::string, std::string>>;

TEST(MpiVariant, CommandLine) {
  const Config c = test::parse(
      {"--backend=mpi", "--mpi-variant=tcp:UCX_TLS=self,tcp", "--mpi-variant", "sm:UCX_TLS=sm"});
  ASSERT_EQ(c.mpi_variants.size(), 2u);
  EXPECT_EQ(c.mpi_variants[0].label(), "mpi-tcp");
  EXPECT_EQ(c.mpi_variants[1].env, (Env{{"UCX_TLS", "sm"}}));
  EXPECT_EQ(c.arguments,
            (std::vector<std::string>{"--backend=mpi", "--mpi-variant=tcp:UCX_TLS=self,tcp",
                                      "--mpi-variant", "sm:UCX_TLS=sm"}));
  EXPECT_TRUE(test::parse({}).mpi_variants.empty());
  EXPECT_EQ(test::usage_error({"--backend=shm", "--mpi-variant=a:X=1"}),
            "--mpi-variant applies to the mpi backend, which --backend does not select");
  EXPECT_EQ(test::usage_error({"--mpi-variant=a:X=1", "--mpi-variant=a:Y=1"}),
            "--mpi-variant: the name 'a' is given twice");
  EXPECT_EQ(test::usage_error({"--mpi-variant", ""}),
            "--mpi-variant needs a value, not an empty one");
  EXPECT_EQ(test::usage_error({"--mpi-variant="}), "--mpi-variant: 1 required SPEC missing");
}

}  // namespace
}  // namespace comops
