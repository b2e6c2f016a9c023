// The supervising process of a directly run comops: child launcher, signal forwarding, stderr
// watch and the final word on how the job ended.
#include "harness/launch/supervisor.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string_view>

#include "comops/op.hpp"
#include "harness/launch/launcher.hpp"
#include "harness/launch/launcher_notices.hpp"
#include "harness/util/output_file.hpp"

namespace comops {
namespace {

constexpr const char* kLaunchedVar = "COMOPS_LAUNCHED";
constexpr const char* kRunDirVar = "COMOPS_RUN_DIR";
constexpr const char* kRankTable = "ranks.json";

volatile sig_atomic_t g_child = 0;
volatile sig_atomic_t g_forwarded = 0;

void forward_signal(int sig) {
  g_forwarded = sig;
  if (g_child > 0) ::kill(static_cast<pid_t>(g_child), sig);
}

std::string self_path() {
  char self[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) throw RuntimeError("cannot find the comops executable to relaunch");
  self[n] = '\0';
  return self;
}

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The world rank whose process is `pid` on `host` in the table, or -1 (pids alone when the
// launcher names hosts differently from gethostname, as long as that is unambiguous).
int rank_of(const nlohmann::json& table, long pid, const std::string& host) {
  int by_pid = -1, matches = 0;
  for (const auto& r : table) {
    if (r.at("pid").get<long>() != pid) continue;
    if (r.at("host").get<std::string>() == host) return r.at("rank").get<int>();
    by_pid = r.at("rank").get<int>();
    ++matches;
  }
  return matches == 1 ? by_pid : -1;
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
  const std::string self = self_path(), np_text = std::to_string(np);
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

// Starts the launcher (words[0]) with the run directory and `settings` in its environment. Its
// stdout and stderr pass through pipes: Hydra reports a process that ended badly on stdout, the
// ranks' errors come on stderr.
Launched start_launcher(std::vector<std::string>& words,
                        const std::vector<std::pair<std::string, std::string>>& settings,
                        const std::string& run_dir) {
  std::vector<char*> args;
  for (auto& w : words) args.push_back(w.data());
  args.push_back(nullptr);
  int out_pipe[2], err_pipe[2];
  if (::pipe(out_pipe) != 0 || ::pipe(err_pipe) != 0)
    throw RuntimeError(fmt::format("cannot start {}: {}", words[0], std::strerror(errno)));
  std::fflush(nullptr);
  const pid_t child = ::fork();
  if (child < 0)
    throw RuntimeError(fmt::format("cannot start {}: {}", words[0], std::strerror(errno)));
  if (child == 0) {
    ::dup2(out_pipe[1], STDOUT_FILENO);
    ::dup2(err_pipe[1], STDERR_FILENO);
    for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) ::close(fd);
    ::setenv(kLaunchedVar, "1", 1);
    ::setenv(kRunDirVar, run_dir.c_str(), 1);
    for (const auto& [name, value] : settings) ::setenv(name.c_str(), value.c_str(), 0);
    ::execv(words[0].c_str(), args.data());
    fmt::print(stderr, "comops: error: cannot start {}: {}\n", words[0], std::strerror(errno));
    ::_exit(127);
  }
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
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

// The launcher's stdout and stderr passed through as they come, with a copy kept to read the
// launcher's verdict from; Open MPI's boxed notices that repeat a non-zero exit code leave
// stderr (launcher_notices.hpp).
class StreamRelay {
 public:
  StreamRelay(int out, int err) : fds_{{out, POLLIN, 0}, {err, POLLIN, 0}} {}

  // Passes both streams on until `child` exits; returns its wait status.
  int until_exit(pid_t child) {
    int status = 0;
    for (bool exited = false; !exited;) {
      if (::poll(fds_, 2, 200) > 0)
        for (int i = 0; i < 2; ++i)
          if (fds_[i].fd >= 0 && (fds_[i].revents & (POLLIN | POLLHUP))) pass(i);
      const pid_t w = ::waitpid(child, &status, WNOHANG);
      exited = w == child || (w < 0 && errno != EINTR);
    }
    return status;
  }

  // Processes the launcher left behind may hold the pipes: takes what is there, then stops;
  // closes the pipes.
  void finish() {
    for (int i = 0; i < 2; ++i)
      if (fds_[i].fd >= 0) {
        ::fcntl(fds_[i].fd, F_SETFL, O_NONBLOCK);
        while (fds_[i].fd >= 0 && pass(i)) {
        }
      }
    if (const std::string rest = notices_.flush(); !rest.empty())
      if (::write(STDERR_FILENO, rest.data(), rest.size()) < 0) {
        // stderr is gone: nothing to report it on
      }
    ::close(out_);
    ::close(err_);
  }

  const std::string& seen() const { return seen_; }
  int out_error() const { return out_error_; }  ///< the first failed write to our stdout, or 0

 private:
  // One read from stream i (0 stdout, 1 stderr) passed on; false when nothing came.
  bool pass(int i) {
    char buf[4096];
    const ssize_t n = ::read(fds_[i].fd, buf, sizeof buf);
    if (n > 0) {
      if (i == 1) {
        const std::string text = notices_.feed(std::string_view(buf, static_cast<std::size_t>(n)));
        if (!text.empty() && ::write(STDERR_FILENO, text.data(), text.size()) < 0) {
          // stderr is gone: nothing to report it on
        }
        if (seen_.size() < (1u << 20)) seen_.append(buf, static_cast<std::size_t>(n));
        return true;
      }
      const ssize_t w = ::write(STDOUT_FILENO, buf, static_cast<std::size_t>(n));
      if (w != n && out_error_ == 0) out_error_ = w < 0 ? errno : EIO;  // the tables are lost there
      if (seen_.size() < (1u << 20)) seen_.append(buf, static_cast<std::size_t>(n));
      return true;
    }
    if (n == 0 || (errno != EINTR && errno != EAGAIN)) fds_[i].fd = -1;  // closed: poll skips it
    return false;
  }

  pollfd fds_[2];
  const int out_ = fds_[0].fd, err_ = fds_[1].fd;
  LauncherNoticeFilter notices_;
  std::string seen_;
  int out_error_ = 0;
};

}  // namespace

std::string judge_job(int status, const std::string& err, const std::string& rank_table,
                      int forwarded_signal, int* code) {
  if (forwarded_signal != 0) {
    *code = 128 + forwarded_signal;
    return fmt::format(
        "comops: error: interrupted by {}; the rows measured before are in the "
        "output files",
        forwarded_signal == SIGINT ? "SIGINT" : "SIGTERM");
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
    return fmt::format(
        "comops: error: lost {}: it ended with code {} and the launcher ended the "
        "job; the rows measured before are in the output files",
        who, m[3].str());
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
        "comops: error: lost rank {} (pid {} on host {}): it was killed by signal {} and the "
        "launcher ended the job; the rows measured before are in the output files",
        rank, pid, host, m[4].str());
  }
  if (WIFSIGNALED(status)) {
    *code = 3;
    return fmt::format("comops: error: the launcher was killed by signal {}", WTERMSIG(status));
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

int run_under_launcher(const std::vector<std::string>& launcher, int np, int argc, char** argv) {
  if (std::getenv(kLaunchedVar) != nullptr)
    throw RuntimeError(fmt::format(
        "{} started comops without an MPI environment comops recognises (no PMI variables)",
        launcher.at(0)));
  const std::string run_dir = make_run_dir();
  std::vector<std::string> words = launch_words(launcher, np, argc, argv);
  const auto settings = launcher_environment(::geteuid() == 0);
  const Launched job = start_launcher(words, settings, run_dir);
  forward_signals_to(job.pid);
  StreamRelay relay(job.out, job.err);
  const int status = relay.until_exit(job.pid);
  relay.finish();
  g_child = 0;
  const std::string table = read_file(std::filesystem::path(run_dir) / kRankTable);
  std::error_code ec;
  std::filesystem::remove_all(run_dir, ec);
  int code = 3;
  std::string line = judge_job(status, relay.seen(), table, g_forwarded, &code);
  if (code == 0 && relay.out_error() != 0) {
    code = 3;
    line =
        fmt::format("comops: error: cannot write to stdout: {}", std::strerror(relay.out_error()));
  }
  if (!line.empty()) fmt::print(stderr, "{}\n", line);
  return code;
}

}  // namespace comops
