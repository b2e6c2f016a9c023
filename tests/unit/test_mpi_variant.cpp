// --mpi-variant: parsing NAME:VAR=VALUE[,VAR=VALUE...][;...] (harness/launch/mpi_variant.hpp),
// with the exact one-line messages; the command line's checks around it: test_cli_mpi_variant.cpp.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "comops/op.hpp"
#include "harness/launch/mpi_variant.hpp"

namespace comops {
namespace {

using Env = std::vector<std::pair<std::string, std::string>>;

std::string variant_error(const std::vector<std::string>& values) {
  try {
    parse_mpi_variants(values);
  } catch (const UsageError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no UsageError";
  return {};
}

TEST(MpiVariant, ValuesMayHoldCommasAndEquals) {
  const auto v = parse_mpi_variants({"nocma:UCX_TLS=self,sysv,posix",
                                     "cma:UCX_TLS=self,sysv,posix,cma,UCX_RNDV_THRESH=8K;"
                                     "odd:A=x=y,B=,_C1=a,,b"});
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0].name, "nocma");
  EXPECT_EQ(v[0].label(), "mpi-nocma");
  EXPECT_EQ(v[0].env, (Env{{"UCX_TLS", "self,sysv,posix"}}));
  EXPECT_EQ(v[1].name, "cma");
  EXPECT_EQ(v[1].env, (Env{{"UCX_TLS", "self,sysv,posix,cma"}, {"UCX_RNDV_THRESH", "8K"}}));
  EXPECT_EQ(v[2].name, "odd");
  EXPECT_EQ(v[2].env, (Env{{"A", "x=y"}, {"B", ""}, {"_C1", "a,,b"}}));
  EXPECT_TRUE(parse_mpi_variants({}).empty());
}

TEST(MpiVariant, BadValuesAreOneLineUsageErrors) {
  EXPECT_EQ(variant_error({"UCX_TLS=self"}),
            "--mpi-variant 'UCX_TLS=self': expected NAME:VAR=VALUE[,VAR=VALUE...]");
  EXPECT_EQ(variant_error({":UCX_TLS=self"}),
            "--mpi-variant ':UCX_TLS=self': no NAME before ':' (expected "
            "NAME:VAR=VALUE[,VAR=VALUE...])");
  EXPECT_EQ(variant_error({"a:"}),
            "--mpi-variant 'a:': no VAR=VALUE after ':' (expected NAME:VAR=VALUE[,VAR=VALUE...])");
  EXPECT_EQ(variant_error({"a:UCX_TLS"}),
            "--mpi-variant 'a:UCX_TLS': 'UCX_TLS' is not VAR=VALUE (VAR: letters, digits and '_', "
            "not first a digit)");
  EXPECT_EQ(variant_error({"a:1X=2"}),
            "--mpi-variant 'a:1X=2': '1X=2' is not VAR=VALUE (VAR: letters, digits and '_', not "
            "first a digit)");
  EXPECT_EQ(variant_error({"a:=x"}),
            "--mpi-variant 'a:=x': '=x' is not VAR=VALUE (VAR: letters, digits and '_', not first "
            "a digit)");
  EXPECT_EQ(variant_error({"a b:X=1"}),
            "--mpi-variant 'a b:X=1': NAME 'a b' may hold only letters, digits, '_' and '-' (at "
            "most 32)");
  EXPECT_EQ(variant_error({"a:X=1,Y=2,X=3"}), "--mpi-variant 'a:X=1,Y=2,X=3': X is set twice");
  EXPECT_EQ(variant_error({"a:X=1", "b:X=1;a:Y=2"}), "--mpi-variant: the name 'a' is given twice");
  EXPECT_EQ(variant_error({"a:X=1;"}), "--mpi-variant '': expected NAME:VAR=VALUE[,VAR=VALUE...]");
}

}  // namespace
}  // namespace comops
