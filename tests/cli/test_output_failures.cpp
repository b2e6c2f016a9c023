// Output that cannot be written ends the run on every rank with exit 3 and one line; outputs that
// are not regular files are written into, never replaced.
#include <fcntl.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "cli_runner.hpp"

namespace {

namespace fs = std::filesystem;
using namespace comops_test;  // comops(), scratch(), slurp(), lines(), kQuick ...

// A generous bound for a hang only (the run takes about a second).
constexpr const char* kHangBound = "timeout -s KILL 120";

TEST(OutputFailure, FullDeviceEndsEveryRankWithOneLine) {
  for (const char* option : {"--csv", "--json", "--gbench-json"}) {
    const Outcome o = comops(fmt::format("--backend=mpi --np=3 -n 5 -w 1 -r 2 --no-limits "
                                         "--op=barrier,broadcast --sizes=8 {} /dev/full",
                                         option),
                             kHangBound);
    EXPECT_EQ(o.code, 3) << option << ": " << o.err;
    EXPECT_EQ(o.err, "comops: error: cannot write /dev/full: No space left on device\n") << option;
  }
}

TEST(OutputFailure, UnwritableStdoutIsARuntimeError) {
  // comops() sends stdout to a file: the shell sends comops' to /dev/full instead. mpi: the
  // supervisor forwarding the job's stdout fails; shm: comops' own first row fails.
  for (const char* args : {"--backend=mpi --np=2 -n 5 -w 1 -r 2 --no-limits --op=barrier",
                           "--backend=shm --np=2 -n 5 -w 1 -r 2 --no-limits --op=barrier"}) {
    const Outcome o =
        comops(args, fmt::format("{} sh -c 'exec \"$0\" \"$@\" >/dev/full'", kHangBound));
    EXPECT_EQ(o.code, 3) << args << ": " << o.err;
    EXPECT_EQ(o.err, "comops: error: cannot write to stdout: No space left on device\n") << args;
  }
}

TEST(OutputFailure, DirectoryIsRefused) {
  const auto dir = scratch();
  const Outcome o = comops(fmt::format("{} --op=barrier --json {}", kQuick, dir.string()));
  EXPECT_EQ(o.code, 3);
  EXPECT_EQ(o.err, fmt::format("comops: error: cannot write {}: Is a directory\n", dir.string()));
}

TEST(NonRegularOutput, JsonToStdoutIsWrittenOnceAfterTheTables) {
  const Outcome o =
      comops(fmt::format("{} --op=barrier,broadcast --sizes=8 --np-bytes=8 "
                         "--progress=never --json /dev/stdout",
                         kQuick));
  ASSERT_EQ(o.code, 0) << o.err;
  const auto start = o.out.find("{\n  \"comops_format\"");
  ASSERT_NE(start, std::string::npos) << o.out;
  EXPECT_EQ(o.out.find("comops_format", start + 20), std::string::npos) << "written twice";
  EXPECT_NE(o.out.substr(0, start).find("== barrier: time versus nprocs =="), std::string::npos);
  const auto doc = nlohmann::json::parse(o.out.substr(start));
  ASSERT_EQ(doc["results"].size(), 2u);
  EXPECT_EQ(doc["results"][0]["op"], "broadcast");
  EXPECT_EQ(doc["results"][1]["op"], "barrier");
}

TEST(NonRegularOutput, SymbolicLinkIsKeptAndItsFileWritten) {
  const auto dir = scratch();
  std::ofstream(dir / "real.json") << "old\n";
  fs::create_symlink("real.json", dir / "link.json");
  const Outcome o =
      comops(fmt::format("{} --op=barrier --json {}/link.json", kQuick, dir.string()));
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_TRUE(fs::is_symlink(dir / "link.json"));
  EXPECT_EQ(nlohmann::json::parse(slurp(dir / "real.json"))["results"].size(), 1u);
  for (const auto& e : fs::directory_iterator(dir))
    EXPECT_EQ(e.path().filename().string().find(".tmp"), std::string::npos) << e.path();
}

TEST(NonRegularOutput, FifoReceivesTheWholeDocumentOnce) {
  const auto dir = scratch();
  const auto fifo = dir / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string got;
  std::thread reader([&] { got = slurp(fifo); });
  const Outcome o =
      comops(fmt::format("{} --op=barrier --gbench-json {}", kQuick, fifo.string()), kHangBound);
  if (o.code != 0) std::ofstream(fifo) << "";  // release the reader if comops never opened it
  reader.join();
  ASSERT_EQ(o.code, 0) << o.err;
  struct stat st {};
  ASSERT_EQ(::stat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  const auto doc = nlohmann::json::parse(got);
  // One barrier point: its two repetitions and the mean, median and stddev aggregates.
  EXPECT_EQ(doc["benchmarks"].size(), 5u) << got;
}

TEST(NonRegularOutput, CharacterDeviceIsNotReplaced) {
  if (::geteuid() != 0) GTEST_SKIP() << "making a device node needs root";
  const auto dir = scratch();
  const auto node = dir / "null";
  ASSERT_EQ(::mknod(node.c_str(), S_IFCHR | 0666, makedev(1, 3)), 0);  // like /dev/null
  for (const char* option : {"--json", "--gbench-json", "--csv"}) {
    const Outcome o = comops(fmt::format("{} --op=barrier {} {}", kQuick, option, node.string()));
    EXPECT_EQ(o.code, 0) << option << ": " << o.err;
    struct stat st {};
    ASSERT_EQ(::stat(node.c_str(), &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode)) << option << " replaced the device node";
  }
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}), 1);
}

}  // namespace
