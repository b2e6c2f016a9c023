// The supervising process of a directly run comops: child launcher, signal forwarding, stderr
// watch and the final word on how the job ended.
#include "harness/launch/supervisor.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <netdb.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string_view>

#include "comops/op.hpp"
#include "harness/launch/launch_hosts.hpp"
#include "harness/launch/launcher.hpp"
#include "harness/launch/spawn.hpp"
#include "harness/launch/stream_relay.hpp"
#include "harness/runtime/watchdog.hpp"
#include "harness/util/output_file.hpp"
#include "harness/util/read_text_file.hpp"

namespace comops {
namespace {

constexpr const char* kLaunchedVar = "COMOPS_LAUNCHED";
constexpr const char* kRunDirVar = "COMOPS_RUN_DIR";
constexpr const char* kRankTable = "ranks.json";
constexpr const char* kRowCount = "rows";

volatile sig_atomic_t g_child = 0;
volatile sig_atomic_t g_forwarded = 0;

void forward_signal(int sig) {
  g_forwarded = sig;
  if (g_child > 0) ::kill(static_cast<pid_t>(g_child), sig);
}

// The addresses `host` resolves to (empty when it does not).
std::set<std::string> addresses_of(const std::string& host) {
  std::set<std::string> out;
  addrinfo hints = {};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (::getaddrinfo(host.c_str(), nullptr, &hints, &found) != 0) return out;
  for (const addrinfo* a = found; a != nullptr; a = a->ai_next) {
    char text[NI_MAXHOST];
    if (::getnameinfo(a->ai_addr, a->ai_addrlen, text, sizeof text, nullptr, 0, NI_NUMERICHOST) ==
        0)
      out.insert(text);
  }
  ::freeaddrinfo(found);
  return out;
}

// Whether the launcher's name of a host and a rank's own name of it are the same host: equal,
// or resolving to a common address (the launcher may name it by its address).
bool same_host(const std::string& launcher_name, const std::string& own_name) {
  if (launcher_name == own_name) return true;
  const std::set<std::string> a = addresses_of(launcher_name), b = addresses_of(own_name);
  return std::any_of(a.begin(), a.end(), [&b](const std::string& x) { return b.count(x) > 0; });
}

// The world rank whose process is `pid` on `host` in the table, or -1: by pid and host (names
// compared as same_host does), else by pid alone while that is unambiguous.
int rank_of(const nlohmann::json& table, long pid, const std::string& host) {
  int by_pid = -1, matches = 0;
  for (const auto& r : table) {
    if (r.at("pid").get<long>() != pid) continue;
    if (r.at("host").get<std::string>() == host) return r.at("rank").get<int>();
    by_pid = r.at("rank").get<int>();
    ++matches;
  }
  if (matches == 1) return by_pid;
  for (const auto& r : table)
    if (r.at("pid").get<long>() == pid && same_host(host, r.at("host").get<std::string>()))
      return r.at("rank").get<int>();
  return -1;
}

// What an early end kept, for the end of a line: "the 3 rows measured before are in the output
// files", "nothing had been measured", or without a count when it is not known.
std::string kept(long rows) {
  if (rows < 0) return "the rows measured before are in the output files";
  if (rows == 0) return "nothing had been measured";
  return fmt::format("the {} row{} measured before {} in the output files", rows,
                     rows == 1 ? "" : "s", rows == 1 ? "is" : "are");
}

// "signal 9 (SIGKILL)".
std::string signal_text(int sig) {
  const char* abbrev = ::sigabbrev_np(sig);
  return abbrev != nullptr ? fmt::format("signal {} (SIG{})", sig, abbrev)
                           : fmt::format("signal {}", sig);
}

// How Hydra says a lost process ended: "it was killed by signal 9 (SIGKILL)" when its exit
// string names a signal; else "it ended with code N", and for N of a signal's number (comops'
// ranks themselves exit 0 to 3) that Hydra reports a process that signal killed so too.
std::string hydra_ending(const std::string& err, const std::string& code) {
  static const std::regex by_signal(R"(EXIT STRING: [^\n]*\(signal (\d+)\))");
  std::smatch m;
  if (std::regex_search(err, m, by_signal))
    return "it was killed by " + signal_text(std::stoi(m[1].str()));
  const int n = std::stoi(code);
  if (n > 3 && n < SIGRTMIN)
    return fmt::format("it ended with code {}, which Hydra also reports for {}", n, signal_text(n));
  return "it ended with code " + code;
}

// A private directory ($TMPDIR or /tmp) where rank 0 leaves the rank table.
std::string make_run_dir() {
  std::error_code tmp_ec;
  std::string run_dir =
      (std::filesystem::temp_directory_path(tmp_ec) / "comops-run.XXXXXX").string();
  if (tmp_ec || ::mkdtemp(run_dir.data()) == nullptr)
    throw RuntimeError(fmt::format("cannot create a run directory: {}", std::strerror(errno)));
  return run_dir;
}

// The launcher's command line: it, then -n np and this comops with the same arguments.
std::vector<std::string> launch_words(const std::vector<std::string>& launcher, int np, int argc,
                                      char** argv) {
  const std::string self = self_executable("relaunch"), np_text = std::to_string(np);
  std::vector<std::string> words = launcher;
  words.insert(words.end(), {"-n", np_text, self});
  for (int i = 1; i < argc; ++i) words.emplace_back(argv[i]);
  return words;
}

// The launcher's process and the read ends of its stdout and stderr.
struct Launched {
  pid_t pid;
  int out, err;
};

// This process's environment with NAME=VALUE set: replacing NAME's entry when `replace`, else
// only where NAME is not set yet (as setenv does).
void set_variable(std::vector<std::string>& env, const std::string& name, const std::string& value,
                  bool replace) {
  const std::string entry = name + "=" + value;
  const auto it = std::find_if(env.begin(), env.end(), [&name](const std::string& e) {
    return e.compare(0, name.size() + 1, name + "=") == 0;
  });
  if (it == env.end()) {
    env.push_back(entry);
  } else if (replace) {
    *it = entry;
  }
}

// Starts the launcher (words[0]) with the run directory and `settings` (where the environment
// does not set them already) in its environment. Its stdout and stderr pass through pipes:
// Hydra reports a process that ended badly on stdout, the ranks' errors come on stderr.
Launched start_launcher(const std::vector<std::string>& words,
                        const std::vector<std::pair<std::string, std::string>>& settings,
                        const std::string& run_dir) {
  SpawnSpec spec{words, current_environment()};
  set_variable(spec.env, kLaunchedVar, "1", true);
  set_variable(spec.env, kRunDirVar, run_dir, true);
  for (const auto& [name, value] : settings) set_variable(spec.env, name, value, false);
  int out_pipe[2], err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0 || ::pipe2(err_pipe, O_CLOEXEC) != 0)
    throw RuntimeError(fmt::format("cannot start {}: {}", words[0], std::strerror(errno)));
  spec.stdout_fd = out_pipe[1];
  spec.stderr_fd = err_pipe[1];
  const pid_t child = spawn(spec);
  const int fork_error = errno;
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  if (child < 0) {
    ::close(out_pipe[0]);
    ::close(err_pipe[0]);
    throw RuntimeError(fmt::format("cannot start {}: {}", words[0], std::strerror(fork_error)));
  }
  return {child, out_pipe[0], err_pipe[0]};
}

// SIGINT and SIGTERM go on to the launcher. A closed stdout (comops | head) must not kill the
// supervisor and orphan the job: the write fails instead, the job runs on into its files, and
// the exit code says what was lost.
void forward_signals_to(pid_t child) {
  g_child = child;
  struct sigaction sa = {};
  sa.sa_handler = forward_signal;
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
  ::signal(SIGPIPE, SIG_IGN);
}

}  // namespace

std::string judge_job(int status, const std::string& err, const std::string& rank_table,
                      int forwarded_signal, int* code, long rows) {
  if (forwarded_signal != 0) {
    *code = 128 + forwarded_signal;
    return fmt::format("comops: error: interrupted by {}; {}",
                       forwarded_signal == SIGINT ? "SIGINT" : "SIGTERM", kept(rows));
  }
  // A rank's watchdog said why the job ends (harness/runtime/watchdog.hpp): its line stands.
  if (err.find(kWatchdogMark) != std::string::npos) {
    *code = 3;
    return "";
  }
  static const std::regex bad(R"(PID (\d+) RUNNING AT (\S+)\s*=?\s*\n=\s*EXIT CODE: (\d+))");
  std::smatch m;
  if (std::regex_search(err, m, bad)) {
    *code = 3;
    const long pid = std::stol(m[1].str());
    const std::string host = m[2].str();
    int rank = -1;
    if (!rank_table.empty()) {
      try {
        rank = rank_of(nlohmann::json::parse(rank_table), pid, host);
      } catch (const std::exception&) {
        rank = -1;
      }
    }
    const std::string who = rank >= 0 ? fmt::format("rank {} (pid {} on host {})", rank, pid, host)
                                      : fmt::format("a rank (pid {} on host {})", pid, host);
    return fmt::format("comops: error: lost {}: {} and the launcher ended the job; {}", who,
                       hydra_ending(err, m[3].str()), kept(rows));
  }
  // Open MPI's mpiexec names the rank itself (on stderr): "mpiexec noticed that process rank 3
  // with PID 4711 on node h2 exited on signal 9 (Killed)."
  static const std::regex ompi(
      R"(noticed that process rank (\d+) with PID (\d+) on node (\S+) exited on signal (\d+))");
  if (std::regex_search(err, m, ompi)) {
    *code = 3;
    // Open MPI 4.1 may report PID 0: the rank table, when there is one, knows the process.
    const int rank = std::stoi(m[1].str());
    std::string pid = m[2].str(), host = m[3].str();
    try {
      for (const auto& r : nlohmann::json::parse(rank_table.empty() ? "[]" : rank_table))
        if (pid == "0" && r.at("rank").get<int>() == rank) {
          pid = std::to_string(r.at("pid").get<long>());
          host = r.at("host").get<std::string>();
        }
    } catch (const std::exception&) {
      // no usable table: Open MPI's own pid and host
    }
    return fmt::format(
        "comops: error: lost rank {} (pid {} on host {}): it was killed by {} and the launcher "
        "ended the job; {}",
        rank, pid, host, signal_text(std::stoi(m[4].str())), kept(rows));
  }
  if (WIFSIGNALED(status)) {
    *code = 3;
    return fmt::format("comops: error: the launcher was killed by {}",
                       signal_text(WTERMSIG(status)));
  }
  const int exit = WIFEXITED(status) ? WEXITSTATUS(status) : 3;
  if (rank_table.empty()) {
    *code = 3;
    return exit == 0 ? "comops: error: the launcher ran no comops rank (nothing was measured)"
                     : fmt::format(
                           "comops: error: the launcher failed with exit code {} before "
                           "comops started",
                           exit);
  }
  if (exit <= 3) {
    *code = exit;  // comops' own code, agreed by every rank; its ranks printed the line
    return "";
  }
  *code = 3;
  return fmt::format("comops: error: the launcher failed with exit code {}", exit);
}

void record_ranks(const NodeMap& nodes) {
  const char* dir = std::getenv(kRunDirVar);
  if (dir == nullptr || *dir == '\0') return;
  nlohmann::json table = nlohmann::json::array();
  for (int r = 0; r < nodes.world_size(); ++r)
    table.push_back({{"rank", r},
                     {"host", nodes.host_of_rank(r)},
                     {"pid", nodes.pid_of_rank[static_cast<std::size_t>(r)]}});
  try {
    write_file_atomically((std::filesystem::path(dir) / kRankTable).string(), table.dump() + "\n");
  } catch (const RuntimeError&) {
    // Without the table the supervisor still reports a lost rank, by pid and host only.
  }
}

void record_rows(std::size_t rows) {
  const char* dir = std::getenv(kRunDirVar);
  if (dir == nullptr || *dir == '\0') return;
  try {
    write_file_atomically((std::filesystem::path(dir) / kRowCount).string(),
                          std::to_string(rows) + "\n");
  } catch (const RuntimeError&) {
    // Without the count the supervisor's line says "the rows measured before"
  }
}

namespace {

// The row count record_rows left in run_dir, -1 when there is none.
long recorded_rows(const std::string& run_dir) {
  const std::string text = read_text_file(std::filesystem::path(run_dir) / kRowCount);
  try {
    return text.empty() ? -1 : std::stol(text);
  } catch (const std::exception&) {
    return -1;
  }
}

}  // namespace

double startup_bound_s(double requested_s, std::size_t hosts) {
  if (requested_s > 0) return requested_s;
  return kStartupBaseS + kStartupPerHostS * static_cast<double>(std::max<std::size_t>(hosts, 1));
}

std::string startup_line(double waited_s, int np, const std::vector<std::string>& started,
                         const std::vector<std::string>& named) {
  std::map<std::string, int> by_host;
  for (const auto& h : started) ++by_host[h];
  std::vector<std::string> counts, silent;
  for (const auto& [host, n] : by_host) counts.push_back(fmt::format("{} on {}", n, host));
  for (const auto& h : named)
    if (std::none_of(by_host.begin(), by_host.end(),
                     [&h](const auto& kv) { return same_host(h, kv.first); }))
      silent.push_back(h);
  const std::string where = counts.empty() ? "" : fmt::format(" ({})", fmt::join(counts, ", "));
  if (static_cast<int>(started.size()) >= np)
    return fmt::format(
        "comops: error: the job did not start within {:.0f} s: all {} ranks started{} but MPI "
        "did not come up (--startup-timeout); nothing had been measured",
        waited_s, np, where);
  const std::string missing =
      silent.empty() ? ""
                     : fmt::format(
                           "; no rank started on {} (named by the launcher): check that "
                           "{} reachable",
                           fmt::join(silent, ", "), silent.size() == 1 ? "it is" : "they are");
  return fmt::format(
      "comops: error: the job did not start within {:.0f} s: {} of {} ranks started{}{} "
      "(--startup-timeout); nothing had been measured",
      waited_s, started.size(), np, where, missing);
}

int run_under_launcher(const std::vector<std::string>& launcher, int np, int argc, char** argv,
                       double startup_s) {
  if (std::getenv(kLaunchedVar) != nullptr)
    throw RuntimeError(fmt::format(
        "{} started comops without an MPI environment comops recognises (no PMI variables)",
        launcher.at(0)));
  const std::string run_dir = make_run_dir();
  const std::vector<std::string> words = launch_words(launcher, np, argc, argv);
  const auto settings = launcher_environment(::geteuid() == 0);
  const std::vector<std::string> named = launcher_hosts(launcher);
  const Launched job = start_launcher(words, settings, run_dir);
  forward_signals_to(job.pid);
  StreamRelay relay(job.out, job.err,
                    StartupBound{(std::filesystem::path(run_dir) / kRankTable).string(),
                                 startup_bound_s(startup_s, named.size())});
  const int status = relay.until_exit(job.pid);
  relay.finish();
  g_child = 0;
  const std::string table = read_text_file(std::filesystem::path(run_dir) / kRankTable);
  // No rank table: no rank got as far as the first point.
  const long rows = table.empty() ? 0 : recorded_rows(run_dir);
  std::error_code ec;
  std::filesystem::remove_all(run_dir, ec);
  int code = 3;
  std::string line = judge_job(status, relay.seen(), table, g_forwarded, &code, rows);
  if (const auto waited = relay.startup_timed_out(); waited && g_forwarded == 0) {
    code = 3;
    line = startup_line(*waited, np, relay.started_hosts(), named);
  }
  if (code == 0 && relay.out_error() != 0) {
    code = 3;
    line =
        fmt::format("comops: error: cannot write to stdout: {}", std::strerror(relay.out_error()));
  }
  if (!line.empty()) fmt::print(stderr, "{}\n", line);
  return code;
}

}  // namespace comops
