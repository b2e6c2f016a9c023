// The real comops binary: exit 0 on a short sweep with the files it promises, exit 1 on an
// injected fault, exit 2 with one clear line for each kind of bad input, exit 3 at run time.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli_runner.hpp"

namespace {

using namespace comops_test;  // comops(), scratch(), slurp(), lines(), kQuick ...
namespace fs = std::filesystem;

TEST(Cli, HelpExitsZeroAndDocumentsOptions) {
  const Outcome o = comops("--help");
  EXPECT_EQ(o.code, 0);
  for (const char* word : {"--backend",
                           "--op",
                           "--np",
                           "--sizes",
                           "--min-bytes",
                           "--max-bytes",
                           "--step-factor",
                           "--iters",
                           "--warmup",
                           "--repetitions",
                           "--bind",
                           "--placement",
                           "--pair",
                           "--csv",
                           "--json",
                           "--gbench-json",
                           "--force",
                           "-m [MIN:]MAX",
                           "-i ITERS",
                           "-x WARMUP",
                           "OSU aliases:",
                           "Exit codes",
                           "docs/metrics.md",
                           "The default run: every backend"})
    EXPECT_NE(o.out.find(word), std::string::npos) << word;
  EXPECT_EQ(o.out.find("inject-fault"), std::string::npos);
  EXPECT_EQ(o.out.find("swcc-drop-closing-barrier"), std::string::npos);
  EXPECT_EQ(o.err, "");
}

TEST(Cli, VersionExitsZero) {
  const Outcome o = comops("--version");
  EXPECT_EQ(o.code, 0);
  EXPECT_EQ(o.out, "comops 0.1.0\n");
}

TEST(Cli, ShortSweepWritesEveryOutput) {
  const fs::path dir = scratch();
  const Outcome o =
      comops(fmt::format("{} --op=pingpong,broadcast,barrier --sizes=8,1K "
                         "--np-bytes=1K --output-dir {}",
                         kQuick, dir.string()));
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("== pingpong: bandwidth versus size, np=2 =="), std::string::npos);
  EXPECT_NE(o.out.find("== broadcast: time versus nprocs at 1024 bytes (1K) =="),
            std::string::npos);
  EXPECT_NE(o.out.find("== barrier: time versus nprocs =="), std::string::npos);
  // stdout: the rows as they finished (a header line per op, a blank line after them), then the
  // final report that table.txt holds: the summary first, then the tables.
  const std::string table = slurp(dir / "table.txt");
  ASSERT_GT(o.out.size(), table.size());
  EXPECT_EQ(o.out.substr(o.out.size() - table.size()), table);
  const std::string live = o.out.substr(0, o.out.size() - table.size());
  std::vector<std::string> live_lines;
  std::istringstream in(live);
  for (std::string line; std::getline(in, line);) live_lines.push_back(line);
  ASSERT_EQ(live_lines.size(), 9u) << live;  // 3 ops: a header each, 5 rows, a blank line
  for (std::size_t i : {0u, 3u, 6u})
    EXPECT_EQ(live_lines[i].rfind("#  backend          op            np    bytes", 0), 0u) << live;
  for (std::size_t i : {1u, 2u, 4u, 5u, 7u})
    EXPECT_EQ(live_lines[i].rfind("   mpi              ", 0), 0u) << live;
  EXPECT_EQ(live_lines[8], "");
  // Only the busy notes (this machine may be busy) come before the summary.
  const auto summary = table.find("== pingpong at np=2: RTT in us per size ==\n");
  ASSERT_NE(summary, std::string::npos) << table;
  std::istringstream notes(table.substr(0, summary));
  for (std::string line; std::getline(notes, line);)
    EXPECT_EQ(line.rfind("comops: note: ", 0), 0u) << table;
  EXPECT_LT(table.find("== barrier: time in us per np =="),
            table.find("== pingpong: bandwidth versus size, np=2 =="))
      << table;

  const auto doc = nlohmann::json::parse(slurp(dir / "results.json"));
  EXPECT_EQ(doc["comops_format"], 1);
  for (const char* key :
       {"date", "host", "git_sha", "comops_version", "mpi_library", "compiler", "options",
        "topology", "bindings", "oversubscribed", "limits", "cpu_idle_share", "psi_available",
        "cpu_stall_source", "cpu_steal_source", "world_size"})
    EXPECT_TRUE(doc["context"].contains(key)) << key;
  // The library comops was built against (MPI_Get_library_version), MPICH or Open MPI.
  const std::string library = doc["context"]["mpi_library"].get<std::string>();
  const bool ompi = std::string_view(COMOPS_TEST_MPI) == "openmpi";
  EXPECT_EQ(library.rfind(ompi ? "Open MPI v" : "MPICH Version:", 0), 0u) << library;
  EXPECT_EQ(doc["context"]["world_size"], 2);
  // pingpong and broadcast at 8 and 1K (1K also the np point), barrier at np=2.
  ASSERT_EQ(doc["results"].size(), 5u);
  for (const auto& row : doc["results"]) {
    EXPECT_EQ(row["backend"], "mpi");
    EXPECT_EQ(row["np"], 2);
    EXPECT_EQ(row["wrong"], 0);
    EXPECT_EQ(row["iterations"], 5);
    EXPECT_EQ(row["repetitions"], 2);
    EXPECT_EQ(row["rep_times_us"].size(), 2u);
  }
  EXPECT_EQ(doc["results"][1]["bytes"], 1024);
  EXPECT_EQ(doc["results"][1]["tables"], nlohmann::json({"size", "np"}));

  const std::string csv = slurp(dir / "results.csv");
  EXPECT_EQ(lines(csv), 6);
  EXPECT_EQ(csv.rfind("backend,op,np,bytes,", 0), 0u);

  const auto gb = nlohmann::json::parse(slurp(dir / "gbench.json"));
  // 2 repetitions + mean, median, stddev per point.
  EXPECT_EQ(gb["benchmarks"].size(), 5u * 5u);
  EXPECT_EQ(gb["benchmarks"][0]["name"], "mpi/pingpong/np:2/bytes:8");
  EXPECT_EQ(gb["benchmarks"][0]["time_unit"], "ns");
}

// stdout and stderr into one file: every row must be there before the next point's progress
// line, so each row was written and flushed when its point finished, not at the end of the run.
TEST(Cli, RowsArriveAsTheirPointsFinish) {
  const Outcome o = comops(
      "--backend=shm --scheme=direct --np=2 -n 5 -w 1 -r 2 --no-limits --op=pingpong "
      "--sizes=8,1K,64K --np-bytes=64K --progress=lines",
      "timeout -s KILL 120 sh -c 'exec \"$0\" \"$@\" 2>&1'");
  ASSERT_EQ(o.code, 0) << o.out;
  std::vector<std::string> kinds;  // progress k, row k, the progress end, the summary
  const std::regex row(
      "   shm-direct +pingpong +2 +(\\S+) +\\d+\\.\\d{3} +\\d+\\.\\d{4}(  [OCW]+)?");
  std::istringstream in(o.out);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("comops: progress: [", 0) == 0)
      kinds.push_back(line.substr(18, 5));
    else if (std::smatch m; std::regex_match(line, m, row))
      kinds.push_back("row " + m[1].str());
    else if (line.rfind("comops: progress: finished after 3 of 3 points", 0) == 0)
      kinds.push_back("finished");
    else if (line.rfind("== pingpong at np=2", 0) == 0)
      kinds.push_back("summary");
  }
  EXPECT_EQ(kinds, (std::vector<std::string>{"[1/3]", "row 8", "[2/3]", "row 1K", "[3/3]",
                                             "row 64K", "finished", "summary"}))
      << o.out;
}

// Progress asked for into a file: one line per point, no carriage returns.
TEST(Cli, ProgressAlwaysIntoAFileWritesLines) {
  const Outcome o = comops(
      "--backend=shm --scheme=direct --np=2 -n 5 -w 1 -r 2 --no-limits --op=barrier,broadcast "
      "--sizes=8 --np-bytes=8 --progress=always");
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(o.err.find('\r'), std::string::npos) << o.err;
  EXPECT_TRUE(std::regex_search(
      o.err, std::regex("^comops: progress: \\[1/2\\] shm-direct broadcast np=2 8: 0:0\\d "
                        "elapsed\n"
                        "comops: progress: \\[2/2\\] shm-direct barrier np=2 0: 0:0\\d "
                        "elapsed, about 0:0\\d left\n"
                        "comops: progress: finished after 2 of 2 points, 0:0\\d elapsed\n$")))
      << o.err;
}

// A limit's [min, max] over its repetitions around its median, all positive.
void expect_range(const nlohmann::json& range, const nlohmann::json& median,
                  const std::string& what) {
  ASSERT_TRUE(range.is_array() && range.size() == 2u) << what << ": " << range.dump();
  ASSERT_TRUE(median.is_number()) << what;
  EXPECT_GT(range[0].get<double>(), 0) << what;
  EXPECT_LE(range[0].get<double>(), median.get<double>()) << what;
  EXPECT_LE(median.get<double>(), range[1].get<double>()) << what;
}

TEST(Cli, LimitsHaveRangesAndTheAggregateCopy) {
  const fs::path dir = scratch();
  const Outcome o = comops(fmt::format(
      "--backend=shm --scheme=direct --np=2 --op=broadcast --sizes=1K,64K --np-bytes=64K -n 5 "
      "-w 1 -r 2 --progress=never --json {}",
      (dir / "r.json").string()));
  ASSERT_EQ(o.code, 0) << o.err;
  const auto doc = nlohmann::json::parse(slurp(dir / "r.json"));
  const auto& limits = doc["context"]["limits"];
  const int cores = doc["context"]["topology"]["cores"].get<int>();
  if (cores >= 2)
    expect_range(limits["cacheline_rtt_us_range"], limits["cacheline_rtt_us"], "cache line");
  ASSERT_EQ(limits["memcpy"].size(), 2u) << limits.dump();
  for (const auto& m : limits["memcpy"])
    expect_range(m["bw_GBps_range"], m["bw_GBps"], "memcpy " + m["bytes"].dump());
  std::map<std::size_t, double> aggregate;
  for (const auto& a : limits["aggregate_memcpy"]) {
    EXPECT_EQ(a["threads"], std::min(cores, 2)) << a.dump();  // bound cores, at most the np
    expect_range(a["bw_GBps_range"], a["bw_GBps"], "aggregate " + a["bytes"].dump());
    aggregate[a["bytes"].get<std::size_t>()] = a["bw_GBps"].get<double>();
  }
  EXPECT_EQ(aggregate.size(), cores >= 2 ? 2u : 0u) << limits.dump();
  ASSERT_EQ(doc["results"].size(), 2u);  // 1K and 64K, 64K also the np point
  for (const auto& row : doc["results"]) {
    const auto bytes = row["bytes"].get<std::size_t>();
    if (cores >= 2) {
      EXPECT_DOUBLE_EQ(row["aggregate_GBps"].get<double>(), aggregate.at(bytes)) << row.dump();
    }
    ASSERT_TRUE(row.contains("beyond_limit")) << row.dump();
    EXPECT_TRUE(row["beyond_limit"].is_null() || row["beyond_limit"].is_string()) << row.dump();
  }
  if (cores >= 2) {
    EXPECT_NE(o.out.find("\n    64K  [aggregate x2]      1  "), std::string::npos) << o.out;
  }
}

TEST(Cli, RunsUnderMpiexecWithTheRanksGiven) {
  const fs::path dir = scratch();
  const Outcome o = comops(
      fmt::format("{} --op=reduce --sizes=64 --np-bytes=64 --json {}/r.json", kQuick, dir.string()),
      fmt::format("{} -n 2", COMOPS_MPIEXEC));
  ASSERT_EQ(o.code, 0) << o.err;
  const auto doc = nlohmann::json::parse(slurp(dir / "r.json"));
  ASSERT_EQ(doc["results"].size(), 1u);
  EXPECT_EQ(doc["results"][0]["op"], "reduce-max");
}

TEST(Cli, TooFewRanksUnderMpiexecIsAUsageError) {
  const Outcome o = comops("--backend=mpi --np=4 --op=barrier -n 5 -r 2 --no-limits",
                           fmt::format("{} -n 2", COMOPS_MPIEXEC));
  EXPECT_EQ(o.code, 2);
  EXPECT_EQ(lines(o.err), 1) << o.err;
  EXPECT_NE(o.err.find("np=4 needs 4 MPI processes but comops was started with 2"),
            std::string::npos)
      << o.err;
}

TEST(Cli, TwoNodesPairsPlacementAndPerNodeBinding) {
  SKIP_WITHOUT_HYDRA();
  const fs::path dir = scratch();
  const Outcome o = comops(
      fmt::format("--backend=mpi,shm --scheme=direct --op=pingpong,broadcast --sizes=8 "
                  "--np=4 --size-np=4 --np-bytes=8 -n 5 -w 1 -r 2 --progress=never --json {}",
                  (dir / "r.json").string()),
      two_node_mpiexec());
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.err.find("comops: note: shm-direct: pingpong between nodes is not possible "
                       "(threads share one node), skipped"),
            std::string::npos)
      << o.err;
  // The final report, after the rows printed as they finished, opens with the nodes.
  EXPECT_NE(o.out.find("\n\nnodes: 2 -- node 0 = "), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("   mpi inter        pingpong       4        8 "), std::string::npos)
      << o.out;
  EXPECT_NE(o.out.find("network limit [network]: plain MPI between rank 0 "), std::string::npos);
  const auto doc = nlohmann::json::parse(slurp(dir / "r.json"));
  const auto& nodes = doc["context"]["nodes"];
  ASSERT_EQ(nodes.size(), 2u);
  EXPECT_EQ(nodes[0]["ranks"], (std::vector<int>{0, 1}));
  EXPECT_EQ(nodes[1]["ranks"], (std::vector<int>{2, 3}));
  for (const auto& n : nodes) {
    EXPECT_TRUE(n["limits"]["cacheline_rtt_us"].is_number()) << n.dump();  // each node measured
    EXPECT_EQ(n["limits"]["memcpy"].size(), 1u) << n.dump();
    EXPECT_TRUE(n["topology"].contains("summary")) << n.dump();
  }
  EXPECT_EQ(doc["context"]["limits"]["network"]["ranks"], (std::vector<int>{0, 2}));
  // Judged per node: two ranks on each node (this machine's cores), four shm threads on node 0.
  const int cores = nodes[0]["cores"].get<int>();
  std::map<std::string, int> seen;
  for (const auto& row : doc["results"]) {
    EXPECT_EQ(row["wrong"], 0);
    const bool threads = row["backend"] == "shm-direct";
    EXPECT_EQ(row["oversubscribed"], threads ? 4 > cores : 2 > cores) << row.dump();
    const std::string name = row["backend"].get<std::string>() + " " +
                             row["op"].get<std::string>() + " " + row.value("pair", "");
    ++seen[name];
    if (name == "mpi pingpong intra") {
      EXPECT_EQ(row["nodes"], 1);
      EXPECT_EQ(row["cores"], (std::vector<int>{0, 1, 0, 1}));  // packed: ranks 0, 1, 2, 3
    } else if (name == "mpi pingpong inter") {
      EXPECT_EQ(row["nodes"], 2);
      // Participants are ranks 0, 2, 1, 3: each bound by its index on its own node.
      EXPECT_EQ(row["cores"], (std::vector<int>{0, 0, 1, 1}));
    } else if (name == "mpi broadcast ") {
      EXPECT_EQ(row["nodes"], 2);
      EXPECT_EQ(row["cores"], (std::vector<int>{0, 1, 0, 1}));
    } else if (name == "shm-direct pingpong intra" || name == "shm-direct broadcast ") {
      EXPECT_EQ(row["nodes"], 1);  // threads of rank 0, on node 0's cores
      EXPECT_EQ(row["hosts"][3], nodes[0]["host"]);
    }
    EXPECT_EQ(row["hosts"].size(), 4u);
  }
  EXPECT_EQ(seen, (std::map<std::string, int>{{"mpi broadcast ", 1},
                                              {"mpi pingpong intra", 1},
                                              {"mpi pingpong inter", 1},
                                              {"shm-direct broadcast ", 1},
                                              {"shm-direct pingpong intra", 1}}));
}

TEST(Cli, SpreadPlacementAlternatesNodes) {
  SKIP_WITHOUT_HYDRA();
  const fs::path dir = scratch();
  const Outcome o = comops(fmt::format("--backend=mpi --op=broadcast --sizes=8 --np=2,4 "
                                       "--size-np=2 --np-bytes=8 -n 5 -w 1 -r 2 --no-limits "
                                       "--placement=spread --progress=never --json {}",
                                       (dir / "r.json").string()),
                           two_node_mpiexec());
  ASSERT_EQ(o.code, 0) << o.err;
  const auto doc = nlohmann::json::parse(slurp(dir / "r.json"));
  ASSERT_EQ(doc["results"].size(), 2u);
  EXPECT_EQ(doc["results"][0]["np"], 2);
  EXPECT_EQ(doc["results"][0]["nodes"], 2);  // ranks 0 and 2
  EXPECT_EQ(doc["results"][0]["cores"], (std::vector<int>{0, 0}));
  EXPECT_EQ(doc["results"][1]["nodes"], 2);  // ranks 0, 2, 1, 3
  EXPECT_EQ(doc["results"][1]["cores"], (std::vector<int>{0, 0, 1, 1}));
  EXPECT_EQ(doc["context"]["options"]["placement"], "spread");
}

TEST(Cli, InjectedFaultExitsOneAndKeepsTheRows) {
  const fs::path dir = scratch();
  const Outcome o =
      comops(fmt::format("{} --op=scatter --sizes=64 --np-bytes=64 --inject-fault "
                         "--json {}/r.json",
                         kQuick, dir.string()));
  EXPECT_EQ(o.code, 1);
  EXPECT_NE(o.err.find("comops: error: 1 wrong element(s) in the results"), std::string::npos)
      << o.err;
  const auto doc = nlohmann::json::parse(slurp(dir / "r.json"));
  ASSERT_EQ(doc["results"].size(), 1u);
  EXPECT_EQ(doc["results"][0]["wrong"], 1);
  EXPECT_TRUE(std::regex_search(o.out, std::regex(" [OC]*W\n"))) << o.out;  // the flags column
}

// The ops beside the paper's set, alltoall and allgather, on every backend through the real
// binary: validated exactly, a row per backend, op and size, bytes counted as (np-1) x size.
TEST(Cli, AlltoallAndAllgatherRunOnEveryBackend) {
  const fs::path dir = scratch();
  const Outcome o =
      comops(fmt::format("--backend=all --op=alltoall,allgather --np=2 --sizes=8,1K --np-bytes=1K "
                         "-n 5 -w 1 -r 2 --no-limits --json {}/r.json",
                         dir.string()));
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("== alltoall: bandwidth versus size, np=2 =="), std::string::npos);
  EXPECT_NE(o.out.find("== allgather: bandwidth versus size, np=2 =="), std::string::npos);
  EXPECT_EQ(o.out.find("not implemented"), std::string::npos) << o.out;
  const auto doc = nlohmann::json::parse(slurp(dir / "r.json"));
  std::map<std::string, std::vector<int>> sizes;  // "backend op" -> bytes of its rows
  for (const auto& row : doc["results"]) {
    const std::string key = row["backend"].get<std::string>() + " " + row["op"].get<std::string>();
    EXPECT_EQ(row["wrong"], 0) << key;
    EXPECT_EQ(row["np"], 2) << key;
    // np = 2: one block from the other participant; bytes / the slowest participant's time.
    const double bw = row["bytes"].get<double>() / (row["time_us"]["max"].get<double>() * 1e3);
    EXPECT_NEAR(row["bw_GBps"].get<double>(), bw, bw * 1e-9) << key;
    sizes[key].push_back(row["bytes"].get<int>());
  }
  std::map<std::string, std::vector<int>> want;
  for (const char* backend :
       {"mpi", "shm-staged", "shm-direct", "shmp-staged", "shmp-direct", "swcc-64"})
    for (const char* op : {"alltoall", "allgather"})
      want[fmt::format("{} {}", backend, op)] = {8, 1024};
  EXPECT_EQ(sizes, want);
}

// The hidden switch that takes swcc broadcast's closing barrier away: the validation, two calls
// back to back, finds readers holding the next call's data, so the run exits 1 with the W flag.
TEST(Cli, SwccBroadcastWithoutClosingBarrierFailsValidation) {
  const Outcome o = comops(
      "--backend=swcc --np=2 --op=broadcast --sizes=64K -n 2 -w 1 -r 1 --no-limits "
      "--progress=never --swcc-drop-closing-barrier");
  EXPECT_EQ(o.code, 1) << o.err;
  EXPECT_NE(o.err.find("wrong element(s) in the results"), std::string::npos) << o.err;
  EXPECT_TRUE(std::regex_search(o.out, std::regex(" [OC]*W\n"))) << o.out;
}

// Restricts this process to at most two of the CPUs it may run on, until it goes; what it starts
// (comops, mpiexec, the ranks) inherits the restriction, so comops sees at most 2 cores.
class AtMostTwoCpus {
 public:
  AtMostTwoCpus() {
    CPU_ZERO(&saved_);
    if (::sched_getaffinity(0, sizeof saved_, &saved_) != 0) return;
    cpu_set_t two;
    CPU_ZERO(&two);
    for (int c = 0, n = 0; c < CPU_SETSIZE && n < 2; ++c)
      if (CPU_ISSET(c, &saved_)) {
        CPU_SET(c, &two);
        ++n;
      }
    ok_ = ::sched_setaffinity(0, sizeof two, &two) == 0;
  }
  ~AtMostTwoCpus() {
    if (ok_) ::sched_setaffinity(0, sizeof saved_, &saved_);
  }
  AtMostTwoCpus(const AtMostTwoCpus&) = delete;
  AtMostTwoCpus& operator=(const AtMostTwoCpus&) = delete;
  bool ok() const { return ok_; }

 private:
  cpu_set_t saved_;
  bool ok_ = false;
};

TEST(Cli, OversubscribedRunFinishesAndIsFlagged) {
  const AtMostTwoCpus cpus;  // 4 ranks on at most 2 cores, on any machine
  ASSERT_TRUE(cpus.ok()) << "sched_setaffinity failed";
  const fs::path dir = scratch();
  const Outcome o =
      comops(fmt::format("--backend=mpi --np=4 -n 3 -w 1 -r 2 --no-limits "
                         "--op=broadcast,barrier --sizes=64 --np-bytes=64 --json {}/r.json",
                         dir.string()));
  ASSERT_EQ(o.code, 0) << o.err;
  const auto doc = nlohmann::json::parse(slurp(dir / "r.json"));
  EXPECT_EQ(doc["context"]["oversubscribed"], true);
  ASSERT_EQ(doc["results"].size(), 2u);
  for (const auto& row : doc["results"]) {
    EXPECT_EQ(row["np"], 4);
    EXPECT_EQ(row["oversubscribed"], true);
    EXPECT_EQ(row["wrong"], 0);
  }
  EXPECT_TRUE(std::regex_search(o.out, std::regex(" O[CW]*\n"))) << o.out;
}

// A directory with anything in it is refused before anything is measured; --force writes into
// it, keeping what comops does not write.
TEST(Cli, NonEmptyOutputDirIsRefusedWithoutForce) {
  const fs::path dir = scratch() / "out";
  fs::create_directories(dir / "empty-subdir");
  const std::string args =
      fmt::format("{} --op=pingpong --sizes=8 -o {}", kQuick, dir.string());  // mpi: launched
  const std::string shm = fmt::format(
      "--backend=shm --np=2 -n 5 -w 1 -r 2 --no-limits "
      "--op=pingpong --sizes=8 -o {}",
      dir.string());  // not launched
  for (const std::string& command : {args, shm}) {
    const Outcome o = comops(command);
    EXPECT_EQ(o.code, 2) << o.err;
    EXPECT_EQ(o.err, fmt::format("comops: error: --output-dir {} is not empty (--force writes "
                                 "into it, replacing comops' files there; or choose another "
                                 "directory)\n",
                                 dir.string()));
    EXPECT_EQ(o.out, "");  // no table, nothing measured
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename());
    EXPECT_EQ(names, std::vector<std::string>{"empty-subdir"});
  }
  std::ofstream(dir / "notes.txt") << "mine\n";
  const Outcome f = comops(args + " --force");
  ASSERT_EQ(f.code, 0) << f.err;
  EXPECT_EQ(slurp(dir / "notes.txt"), "mine\n");
  EXPECT_EQ(nlohmann::json::parse(slurp(dir / "results.json"))["results"].size(), 1u);
  const std::string table = slurp(dir / "table.txt");  // the final report, after the live rows
  ASSERT_GT(f.out.size(), table.size()) << f.out;
  EXPECT_EQ(f.out.substr(f.out.size() - table.size()), table);
  // Once written, a second run without --force is refused and leaves the rows alone.
  const std::string rows = slurp(dir / "results.csv");
  const Outcome again = comops(args);
  EXPECT_EQ(again.code, 2);
  EXPECT_NE(again.err.find("is not empty"), std::string::npos) << again.err;
  EXPECT_EQ(slurp(dir / "results.csv"), rows);
}

TEST(Cli, OutputDirNamedLikeAReductionIsWarnedAbout) {
  const fs::path dir = scratch();
  const Outcome o =
      comops(fmt::format("{} --op=barrier -o sum", kQuick), fmt::format("cd {} &&", dir.string()));
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(o.err,
            "comops: warning: -o sum writes the results into the directory sum/ (-o is "
            "--output-dir in comops; a reduction operator is --reduce-op, an operation --op)\n");
  EXPECT_TRUE(fs::is_regular_file(dir / "sum" / "results.json"));
}

// The time-versus-nprocs tables come when more than one np is asked for, or --np-bytes is named:
// a single np with --sizes measures those sizes only.
TEST(Cli, NpTableOnlyWhenAskedFor) {
  const fs::path dir = scratch();
  auto bytes_of = [&](const std::string& extra) {
    const Outcome o = comops(fmt::format(
        "{} --op=pingpong,barrier --sizes=8,1K {} --json {}/r.json", kQuick, extra, dir.string()));
    EXPECT_EQ(o.code, 0) << o.err;
    std::vector<std::string> rows;
    const auto doc = nlohmann::json::parse(slurp(dir / "r.json"));
    for (const auto& row : doc["results"])
      rows.push_back(fmt::format("{} {} {}", row["op"].get<std::string>(),
                                 row["bytes"].get<std::size_t>(), row["tables"].dump()));
    return std::make_pair(rows, o.out);
  };
  const auto [plain, plain_out] = bytes_of("");
  EXPECT_EQ(plain, (std::vector<std::string>{R"(pingpong 8 ["size"])", R"(pingpong 1024 ["size"])",
                                             R"(barrier 0 ["np"])"}));
  EXPECT_EQ(plain_out.find("== pingpong: time versus nprocs"), std::string::npos) << plain_out;
  EXPECT_NE(plain_out.find("== barrier: time versus nprocs =="), std::string::npos) << plain_out;
  const auto [named, named_out] = bytes_of("--np-bytes=64");
  EXPECT_EQ(named, (std::vector<std::string>{R"(pingpong 8 ["size"])", R"(pingpong 1024 ["size"])",
                                             R"(pingpong 64 ["np"])", R"(barrier 0 ["np"])"}));
  EXPECT_NE(named_out.find("== pingpong: time versus nprocs at 64 bytes (64) =="),
            std::string::npos)
      << named_out;
}

TEST(Cli, OsuAliasesRunTheSweepTheyName) {
  const fs::path dir = scratch();
  const Outcome o = comops(fmt::format(
      "--backend=shm --op=pingpong --np=2 -m 16:128 -i 4 -x 1 -r 1 --no-limits --json {}/r.json",
      dir.string()));
  ASSERT_EQ(o.code, 0) << o.err;
  std::vector<std::size_t> sizes;
  const auto doc = nlohmann::json::parse(slurp(dir / "r.json"));
  for (const auto& row : doc["results"]) {
    EXPECT_EQ(row["iterations"], 4);
    EXPECT_EQ(row["warmup"], 1);
    sizes.push_back(row["bytes"]);
  }
  // Two schemes, each 16, 32, 64, 128.
  EXPECT_EQ(sizes, (std::vector<std::size_t>{16, 32, 64, 128, 16, 32, 64, 128}));
  expect_usage_error("-m 8:1K --sizes=8", "--sizes excludes -m");
}

// --sync=barrier: named in the context and in every table header, and every row has per-call
// percentiles in order; --sync=none has none unless --percentiles asks for them.
TEST(Cli, SyncBarrierIsNamedAndGivesPercentiles) {
  const fs::path dir = scratch();
  auto run = [&](const std::string& extra) {
    const Outcome o =
        comops(fmt::format("{} --op=reduce,gather,barrier --sizes=8,1K --json {}/r.json {}", kQuick,
                           dir.string(), extra));
    EXPECT_EQ(o.code, 0) << o.err;
    return std::make_pair(nlohmann::json::parse(slurp(dir / "r.json")), o.out);
  };
  const auto [barrier, barrier_out] = run("--sync=barrier");
  EXPECT_EQ(barrier["context"]["options"]["sync"], "barrier");
  EXPECT_EQ(barrier["context"]["options"]["sync_method"],
            "sync barrier: a barrier before each call, only the call timed (OSU)");
  EXPECT_EQ(barrier["context"]["options"]["percentiles"], false);
  ASSERT_EQ(barrier["results"].size(), 5u);  // reduce-max and gather at 8 and 1K, the barrier
  for (const auto& row : barrier["results"]) {
    ASSERT_TRUE(row.contains("percentiles_us")) << row.dump();
    const auto& p = row["percentiles_us"];
    const double p50 = p["p50"], p90 = p["p90"], p99 = p["p99"], max = p["max"];
    EXPECT_GT(p50, 0) << row.dump();  // every call takes some time
    EXPECT_LE(p50, p90) << row.dump();
    EXPECT_LE(p90, p99) << row.dump();
    EXPECT_LE(p99, max) << row.dump();
    // The headline is each participant's mean over calls: never above the slowest call.
    EXPECT_LE(row["time_us"]["max"].get<double>(), max) << row.dump();
  }
  // Every detailed table ("== op: ... versus ...", unlike the summary's) names it.
  const std::regex title("\n== [a-z-]+: [^\n]*versus[^\n]*==\n[^\n]*\n([^\n]*)\n");
  int tables = 0;
  for (std::sregex_iterator it(barrier_out.begin(), barrier_out.end(), title), end; it != end;
       ++it, ++tables)
    EXPECT_EQ((*it)[1].str(),
              "timing: sync barrier: a barrier before each call, only the call timed (OSU)");
  EXPECT_EQ(tables, 3) << barrier_out;  // reduce-max and gather by size, the barrier by np
  EXPECT_EQ(barrier_out.find("p50_us"), std::string::npos) << "columns shown unasked";

  const auto [none, none_out] = run("");
  EXPECT_EQ(none["context"]["options"]["sync"], "none");
  for (const auto& row : none["results"]) EXPECT_FALSE(row.contains("percentiles_us")) << row;
  EXPECT_NE(none_out.find("\ntiming: sync none: calls back to back, one barrier per repetition\n"),
            std::string::npos)
      << none_out;

  const auto [asked, asked_out] = run("--percentiles");
  EXPECT_EQ(asked["context"]["options"]["sync"], "none");
  EXPECT_EQ(asked["context"]["options"]["percentiles"], true);
  for (const auto& row : asked["results"]) {
    ASSERT_TRUE(row.contains("percentiles_us")) << row;
    EXPECT_LE(row["percentiles_us"]["p50"].get<double>(),
              row["percentiles_us"]["max"].get<double>());
  }
  EXPECT_NE(asked_out.find("p50_us  p90_us  p99_us  pmax_us"), std::string::npos) << asked_out;
  expect_usage_error("--sync=sometimes", "unknown --sync 'sometimes' (expected none or barrier)");
}

TEST(Cli, BadInputIsOneLineAndExitTwo) {
  expect_usage_error("--backend=nope", "unknown backend 'nope' (available: ");
  expect_usage_error("--op=pingpong,nope", "unknown op 'nope'");
  expect_usage_error("--sizes=8,12Q", "invalid size '12Q'");
  expect_usage_error("--sizes=abc", "invalid size 'abc'");
  expect_usage_error("-b 1M -e 8", "--min-bytes 1M is larger than --max-bytes 8");
  expect_usage_error("--sizes=12", "size 12 is not a multiple of 8 bytes");
  expect_usage_error("--np=1 --op=pingpong", "pingpong needs at least 2 participants");
  expect_usage_error("--np=two", "invalid --np value 'two'");
  expect_usage_error("--repetitions=0", "--repetitions must be at least 1");
  expect_usage_error("--bind=diagonal", "unknown --bind 'diagonal'");
  expect_usage_error("--sizes=8 -b 16", "--sizes excludes --min-bytes");
  expect_usage_error("--frobnicate", "The following argument was not expected: --frobnicate");
}

TEST(Cli, NodeOptionsThatCannotApplyAreUsageErrors) {
  expect_usage_error(std::string(kQuick) + " --op=pingpong --pair=inter",
                     "--pair=inter needs ranks on two nodes, but all 2 rank(s) run on one node");
  expect_usage_error(
      std::string(kQuick) + " --op=broadcast --pair=intra",
      "--pair applies to pingpong, pingpong-nb");  // the whole line: CliErrors.PairWithoutAPairOp
  expect_usage_error(std::string(kQuick) + " --pair=sideways",
                     "unknown --pair 'sideways' (expected intra, inter, both or auto)");
  expect_usage_error(std::string(kQuick) + " --placement=scatter",
                     "unknown --placement 'scatter' (expected packed or spread)");
  expect_usage_error("--backend=shm --op=pingpong --np=2 --pair=inter",
                     "--pair=inter needs a backend of MPI processes (mpi, swcc)");
}

TEST(Cli, MissingLauncherIsARuntimeError) {
  const Outcome o = comops(fmt::format("{} --mpiexec=/nonexistent/mpiexec", kQuick));
  EXPECT_EQ(o.code, 3);
  EXPECT_EQ(lines(o.err), 1) << o.err;
  EXPECT_NE(o.err.find("MPI launcher '/nonexistent/mpiexec' not found"), std::string::npos)
      << o.err;
}

TEST(Cli, SizeThatCannotBeAllocatedIsARuntimeError) {
  const Outcome o = comops(fmt::format("{} --op=gather --sizes=64G --np-bytes=8", kQuick));
  EXPECT_EQ(o.code, 3);
  EXPECT_EQ(lines(o.err), 1) << o.err;
  EXPECT_NE(o.err.find("gather at 68719476736 bytes with np=2 needs"), std::string::npos) << o.err;
}

TEST(Cli, UnwritableOutputIsARuntimeError) {
  const Outcome o = comops(fmt::format("{} --op=barrier --json /nonexistent/dir/r.json", kQuick));
  EXPECT_EQ(o.code, 3);
  EXPECT_EQ(lines(o.err), 1) << o.err;
  EXPECT_NE(o.err.find("cannot write /nonexistent/dir/r.json"), std::string::npos) << o.err;
}

}  // namespace
