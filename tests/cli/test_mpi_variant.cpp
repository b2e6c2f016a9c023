// --mpi-variant on the real binary: the mpi backend run again by a job of its own under other UCX
// settings, labelled mpi-NAME in every output, the context recording the transports UCX chose;
// bad values and a variant whose job fails.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "cli_runner.hpp"

namespace {

using namespace comops_test;  // comops(), scratch(), slurp(), lines(), kQuick ...
namespace fs = std::filesystem;

std::vector<std::string> text_lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

TEST(MpiVariant, BadValuesAreUsageErrors) {
  expect_usage_error("--backend=shm --mpi-variant=tcp:UCX_TLS=self,tcp",
                     "--mpi-variant applies to the mpi backend, which --backend does not select");
  expect_usage_error("--backend=mpi --mpi-variant=:UCX_TLS=tcp",
                     "--mpi-variant ':UCX_TLS=tcp': no NAME before ':' (expected "
                     "NAME:VAR=VALUE[,VAR=VALUE...])");
  expect_usage_error("--backend=mpi --mpi-variant=tcp:UCX_TLS",
                     "--mpi-variant 'tcp:UCX_TLS': 'UCX_TLS' is not VAR=VALUE (VAR: letters, "
                     "digits and '_', not first a digit)");
  expect_usage_error("--backend=mpi --mpi-variant='a:X=1;a:X=2'",
                     "--mpi-variant: the name 'a' is given twice");
  expect_usage_error("--backend=mpi --mpi-variant=", "--mpi-variant: 1 required SPEC missing");
}

// UCX over TCP instead of shared memory: the variant's ranks got UCX_TLS (the context shows the
// transports UCX chose: tcp, where plain mpi uses shared memory), and its rows stand beside mpi's
// in every output.
TEST(MpiVariant, RunsUnderItsOwnEnvironmentAndIsLabelledEverywhere) {
  if (std::string_view(COMOPS_TEST_MPI) != "mpich")
    GTEST_SKIP() << "UCX_TLS variants need MPICH over UCX; this build's MPI is " << COMOPS_TEST_MPI
                 << " (MpiVariant.OpenMpiVariantsTakeTheirMcaParameters runs there)";
  const fs::path dir = scratch();
  const Outcome o = comops(
      fmt::format("{} --op=pingpong,broadcast --sizes=8,1K --mpi-variant 'tcp:UCX_TLS=self,tcp' "
                  "--mpi-variant 'sysv:UCX_TLS=self,sysv' --progress=never -o {}",
                  kQuick, dir.string()));
  ASSERT_EQ(o.code, 0) << o.err;
  const auto doc = nlohmann::json::parse(slurp(dir / "results.json"));
  const auto& variants = doc["context"]["mpi_variants"];
  ASSERT_EQ(variants.size(), 3u) << variants.dump();
  EXPECT_EQ(variants[0]["label"], "mpi");
  EXPECT_EQ(variants[0]["env"], nlohmann::json::object());
  ASSERT_FALSE(variants[0]["ucx"].is_null()) << variants.dump();
  const auto plain = variants[0]["ucx"]["transports"].get<std::vector<std::string>>();
  EXPECT_EQ(std::count(plain.begin(), plain.end(), "tcp"), 0) << variants.dump();
  EXPECT_EQ(variants[1]["label"], "mpi-tcp");
  EXPECT_EQ(variants[1]["env"], nlohmann::json({{"UCX_TLS", "self,tcp"}}));
  EXPECT_EQ(variants[1]["ucx"]["transports"], nlohmann::json({"self", "tcp"})) << variants.dump();
  EXPECT_EQ(variants[2]["label"], "mpi-sysv");
  EXPECT_EQ(variants[2]["ucx"]["transports"], nlohmann::json({"self", "sysv"})) << variants.dump();

  // Each point: mpi, then its variants in the order given.
  const std::vector<std::string> order = {"mpi", "mpi-tcp", "mpi-sysv"};
  const auto& rows = doc["results"];
  ASSERT_EQ(rows.size(), 12u);  // pingpong and broadcast at 8 and 1K, three labels each
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i]["backend"], order[i % 3]) << i;
    EXPECT_EQ(rows[i]["op"], rows[i - i % 3]["op"]) << i;
    EXPECT_EQ(rows[i]["bytes"], rows[i - i % 3]["bytes"]) << i;
    EXPECT_EQ(rows[i]["np"], 2) << i;
    EXPECT_EQ(rows[i]["wrong"], 0) << i;
    EXPECT_EQ(rows[i]["iterations"], 5) << i;
    EXPECT_EQ(rows[i]["rep_times_us"].size(), 2u) << i;
    EXPECT_EQ(rows[i]["cores"], nlohmann::json({0, 1})) << i;
  }
  for (const auto& s : doc["summary"])
    EXPECT_EQ(s["backends"], nlohmann::json({"mpi", "mpi-tcp", "mpi-sysv"})) << s.dump();

  const auto csv = text_lines(slurp(dir / "results.csv"));
  ASSERT_EQ(csv.size(), 13u);
  for (std::size_t i = 1; i < csv.size(); ++i)
    EXPECT_EQ(csv[i].rfind(order[(i - 1) % 3] + ",", 0), 0u) << csv[i];

  const auto gb = nlohmann::json::parse(slurp(dir / "gbench.json"));
  ASSERT_EQ(gb["benchmarks"].size(), 12u * 5u);  // 2 repetitions + mean, median, stddev
  EXPECT_EQ(gb["benchmarks"][5]["name"], "mpi-tcp/pingpong/np:2/bytes:8");
  EXPECT_EQ(gb["benchmarks"][10]["name"], "mpi-sysv/pingpong/np:2/bytes:8");
  EXPECT_EQ(gb["benchmarks"][10]["label"], "sync=none");

  const std::string table = slurp(dir / "table.txt");
  EXPECT_TRUE(std::regex_search(table, std::regex("\nbytes +mpi +mpi-tcp +mpi-sysv +winner ")))
      << table;
  const auto live = text_lines(o.out.substr(0, o.out.size() - table.size()));
  ASSERT_EQ(live.size(), 15u) << o.out;  // 2 ops: a header each, 12 rows, a blank line
  EXPECT_EQ(live[2].rfind("   mpi-tcp          pingpong       2        8 ", 0), 0u) << o.out;
  EXPECT_EQ(live[3].rfind("   mpi-sysv         pingpong       2        8 ", 0), 0u) << o.out;
}

// UCX refuses a transport list it cannot use: that variant's job fails, and comops says so in one
// line (exit 3) before measuring anything.
TEST(MpiVariant, AVariantWhoseJobFailsIsARuntimeError) {
  if (std::string_view(COMOPS_TEST_MPI) != "mpich")
    GTEST_SKIP() << "UCX refuses the transport at MPI_Init under MPICH over UCX; this build's MPI "
                 << "is " << COMOPS_TEST_MPI
                 << " (MpiVariant.OpenMpiVariantsTakeTheirMcaParameters "
                 << "runs there)";
  const fs::path dir = scratch();
  const Outcome o = comops(
      fmt::format("{} --op=pingpong --sizes=8 --mpi-variant 'none:UCX_TLS=nosuchtransport' -o {}",
                  kQuick, dir.string()));
  EXPECT_EQ(o.code, 3) << o.err;
  EXPECT_EQ(lines(o.err), 1) << o.err;
  EXPECT_EQ(o.err.rfind("comops: error: mpi-none: its job failed (exit code ", 0), 0u) << o.err;
  EXPECT_NE(o.err.find("): UCX: no usable transports/devices (asked nosuchtransport on all "
                       "devices)\n"),
            std::string::npos)
      << o.err;
  EXPECT_EQ(o.out, "");
}

// Under Open MPI a variant's settings are MCA parameters (OMPI_MCA_*): its job must not inherit
// the calling rank's own Open MPI job variables (its launcher would take itself for a rank of
// the running job and fail), and the user's OMPI_MCA_* must reach its ranks: a BTL Open MPI does
// not have fails that variant's job at MPI_Init, in one line.
TEST(MpiVariant, OpenMpiVariantsTakeTheirMcaParameters) {
  if (std::string_view(COMOPS_TEST_MPI) != "openmpi")
    GTEST_SKIP() << "MCA parameters are Open MPI's; this build's MPI is " << COMOPS_TEST_MPI;
  const fs::path dir = scratch();
  const Outcome o = comops(fmt::format(
      "{} --op=pingpong --sizes=8,1K --mpi-variant 'tcp:OMPI_MCA_btl=self,tcp' --progress=never "
      "-o {}",
      kQuick, dir.string()));
  ASSERT_EQ(o.code, 0) << o.err;
  const auto doc = nlohmann::json::parse(slurp(dir / "results.json"));
  const auto& variants = doc["context"]["mpi_variants"];
  ASSERT_EQ(variants.size(), 2u) << variants.dump();
  EXPECT_EQ(variants[1]["label"], "mpi-tcp");
  EXPECT_EQ(variants[1]["env"], nlohmann::json({{"OMPI_MCA_btl", "self,tcp"}}));
  const auto& rows = doc["results"];
  ASSERT_EQ(rows.size(), 4u);
  const std::vector<std::string> order = {"mpi", "mpi-tcp"};
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i]["backend"], order[i % 2]) << i;
    EXPECT_EQ(rows[i]["wrong"], 0) << i;
    EXPECT_EQ(rows[i]["rep_times_us"].size(), 2u) << i;
  }

  const Outcome bad = comops(fmt::format(
      "{} --op=pingpong --sizes=8 --mpi-variant 'none:OMPI_MCA_btl=self,nosuchbtl' -o {}", kQuick,
      scratch().string()));
  EXPECT_EQ(bad.code, 3) << bad.err;
  EXPECT_EQ(lines(bad.err), 1) << bad.err;
  EXPECT_EQ(bad.err.rfind("comops: error: mpi-none: its job failed (exit code 1)", 0), 0u)
      << bad.err;
  EXPECT_EQ(bad.out, "");
}

}  // namespace
