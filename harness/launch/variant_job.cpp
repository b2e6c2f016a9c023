// Starting, waiting for and reading back the job of one --mpi-variant.
#include "harness/launch/variant_job.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <vector>

#include "harness/launch/launcher.hpp"
#include "harness/launch/spawn.hpp"
#include "harness/launch/ucx_log.hpp"
#include "harness/measure/point_result_json.hpp"
#include "harness/util/read_text_file.hpp"

namespace comops {
namespace {

constexpr const char* kJobVar = "COMOPS_VARIANT_JOB";
constexpr const char* kProbeVar = "COMOPS_VARIANT_PROBE";
constexpr const char* kPointsFile = "points.jsonl";
constexpr const char* kOutputFile = "output.txt";

// The first error Open MPI's runtime logged itself ("[host:pid] [[job,0],0] ORTE_ERROR_LOG: WHAT in
// file F at line N"), as "Open MPI's runtime: WHAT (F:N)"; "" when there is none. Under load its
// launcher at times fails to unpack the help message a failing rank sent it (show_help.c), and
// logs this instead of the box: the job's only trace of why it failed.
std::string open_mpi_runtime_error(const std::string& output) {
  static const std::regex kLog(R"(ORTE_ERROR_LOG: (.*) in file (?:\.\./)*(\S+) at line (\d+))");
  std::smatch m;
  if (!std::regex_search(output, m, kLog)) return "";
  return fmt::format("Open MPI's runtime: {} ({}:{})", m[1].str(), m[2].str(), m[3].str());
}

// Open MPI's boxed messages in an output (the text between lines of dashes): for each, the first
// sentence of its first paragraph, and "framework component" when it names them.
struct OpenMpiBox {
  std::string sentence, component;
};
std::vector<OpenMpiBox> open_mpi_boxes(const std::string& output) {
  std::vector<OpenMpiBox> boxes;
  bool inside = false, paragraph = true;
  std::string framework;
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);) {
    if (line.size() >= 20 && line.find_first_not_of('-') == std::string::npos) {
      inside = !inside;
      if (inside) boxes.emplace_back(), paragraph = true, framework.clear();
      continue;
    }
    if (!inside) continue;
    const auto value = [&line] {
      return line.substr(std::min(line.find_first_not_of(' ', 10), line.size()));
    };
    if (line.empty()) {
      paragraph = boxes.back().sentence.empty();
    } else if (line.rfind("Framework:", 0) == 0) {
      framework = value();
    } else if (line.rfind("Component:", 0) == 0) {
      boxes.back().component = framework + " " + value();
    } else if (paragraph) {
      boxes.back().sentence += (boxes.back().sentence.empty() ? "" : " ") + line;
    }
  }
  for (OpenMpiBox& b : boxes) {
    if (const auto end = b.sentence.find(". "); end != std::string::npos) b.sentence.resize(end);
    while (!b.sentence.empty() && (b.sentence.back() == ' ' || b.sentence.back() == '.'))
      b.sentence.pop_back();
  }
  return boxes;
}

nlohmann::json inherited_ucx_env() {
  nlohmann::json env = nlohmann::json::object();
  for (const std::string& entry : current_environment()) {
    const auto eq = entry.find('=');
    if (entry.rfind("UCX_", 0) == 0 && eq != std::string::npos)
      env[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  return env;
}

// The job's own directory (its output, points and UCX logs), removed with this.
struct JobDir {
  std::string path;
  explicit JobDir(const std::string& label) {
    std::error_code ec;
    path = (std::filesystem::temp_directory_path(ec) / "comops-variant.XXXXXX").string();
    if (ec || ::mkdtemp(path.data()) == nullptr)
      throw RuntimeError(fmt::format("{}: cannot create a directory for its job: {}", label,
                                     std::strerror(errno)));
  }
  ~JobDir() {
    std::error_code e;
    std::filesystem::remove_all(path, e);
  }
  JobDir(const JobDir&) = delete;
  JobDir& operator=(const JobDir&) = delete;
};

// The variables this job's ranks get beyond the caller's environment, as VAR=VALUE: the
// variant's, UCX's log into `dir` unless the variant sets its own, and the job's markers.
std::vector<std::string> added_variables(const MpiVariant& variant, const std::string& dir,
                                         bool probe) {
  std::vector<std::string> added;
  bool own_log = true;
  for (const auto& [var, value] : variant.env) {
    added.push_back(var + "=" + value);
    own_log &= var != "UCX_LOG_LEVEL" && var != "UCX_LOG_FILE";
  }
  if (own_log) {
    added.push_back("UCX_LOG_LEVEL=info");
    added.push_back("UCX_LOG_FILE=" + dir + "/ucx.%h.%p.log");
  }
  added.push_back(std::string(kJobVar) + "=" + dir);
  if (probe) added.push_back(std::string(kProbeVar) + "=1");
  return added;
}

// The environment, built before fork (spawn's child only calls exec): the caller's, less the
// calling job's variables and those the variant replaces (`names`), plus the added ones.
std::vector<std::string> job_environment(const std::vector<std::string>& added,
                                         const std::vector<std::string>& names) {
  std::vector<std::string> env;
  for (const std::string& entry : current_environment()) {
    const std::string name = entry.substr(0, entry.find('='));
    const bool replaced =
        variant_job_drops(name) || std::find(names.begin(), names.end(), name) != names.end();
    if (!replaced) env.push_back(entry);
  }
  env.insert(env.end(), added.begin(), added.end());
  return env;
}

// Runs the command `words` with the environment `env`, its stdin /dev/null and its stdout and
// stderr into output_path, and waits for it; returns its wait status. The job ends with the rank
// that started it.
int run_job(const std::string& label, std::vector<std::string> words, std::vector<std::string> env,
            const std::string& output_path) {
  const int output = ::open(output_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  const int null = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (output < 0 || null < 0)
    throw RuntimeError(
        fmt::format("{}: cannot open {}: {}", label, output_path, std::strerror(errno)));
  SpawnSpec spec{std::move(words), std::move(env), null, output, output, true};
  const pid_t child = spawn(spec);
  const int fork_error = errno;
  ::close(output);
  ::close(null);
  if (child < 0)
    throw RuntimeError(
        fmt::format("{}: cannot start its job: {}", label, std::strerror(fork_error)));
  return wait_child(child);
}

// Throws when the job failed, with how it ended and why (its output, UCX's logs in dir). Exit
// code 1 is wrong results when the job measured points: they carry them (the W flag, the run's
// exit code). A job that ends with 1 before any point (MPI_Init failing under the variant's
// settings, as Hydra reports it now and then) failed.
void check_job_ended_well(const std::string& label, int status, const std::string& dir,
                          const std::string& output, bool measured) {
  if (WIFEXITED(status) && (WEXITSTATUS(status) == 0 || (WEXITSTATUS(status) == 1 && measured)))
    return;
  const std::string how = WIFEXITED(status) ? fmt::format("exit code {}", WEXITSTATUS(status))
                                            : fmt::format("killed by signal {}", WTERMSIG(status));
  const std::string why =
      variant_job_error(output + read_ucx_logs(dir));  // UCX logs its errors there
  throw RuntimeError(why.empty() ? fmt::format("{}: its job failed with {}", label, how)
                                 : fmt::format("{}: its job failed ({}): {}", label, how, why));
}

// The job's points, one JSON line each, labelled with the variant's label.
std::vector<PointResult> read_job_points(const std::string& label, const std::string& text) {
  std::vector<PointResult> points;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(line);
    } catch (const nlohmann::json::exception& e) {
      throw RuntimeError(
          fmt::format("{}: a point of its job does not read back: {}", label, e.what()));
    }
    points.push_back(point_result_from_json(j));
    points.back().backend = label;
  }
  return points;
}

// The variant's part of the run's context: its label, its settings, the UCX settings it
// inherited and what UCX used (its logs in dir).
nlohmann::json job_context(const std::string& label, const MpiVariant& variant,
                           const std::string& dir) {
  nlohmann::json set = nlohmann::json::object();
  for (const auto& [var, value] : variant.env) set[var] = value;
  return {{"label", label},
          {"env", set},
          {"inherited_ucx_env", inherited_ucx_env()},
          {"ucx", ucx_usage(read_ucx_logs(dir))}};
}

}  // namespace

// Variables of the calling MPI job (and of comops' supervisor) that must not reach the new job:
// its launcher and ranks would take them for their own. Open MPI's launcher gives its ranks MCA
// parameters of its own (ess, orte_*, pmix: how to reach their daemon) beside the user's
// OMPI_MCA_* settings, which pass.
bool variant_job_drops(const std::string& name) {
  for (const char* prefix : {"PMI_", "PMIX_", "HYDRA_", "HYDI_", "OMPI_COMM_WORLD_", "MPI_LOCAL",
                             "OMPI_MCA_orte_", "OMPI_MCA_ess", "OMPI_MCA_pmix"})
    if (name.rfind(prefix, 0) == 0) return true;
  for (const char* ompi_job : {"OMPI_MCA_initial_wdir", "OMPI_MCA_shmem_RUNTIME_QUERY_hint",
                               "OMPI_COMMAND", "OMPI_APP_CTX_NUM_PROCS", "OMPI_FILE_LOCATION",
                               "OMPI_FIRST_RANKS", "OMPI_NUM_APP_CTX", "OMPI_UNIVERSE_SIZE"})
    if (name == ompi_job) return true;
  return name == "COMOPS_LAUNCHED" || name == "COMOPS_RUN_DIR" || name == kJobVar ||
         name == kProbeVar;
}

// Why the job failed, from its output: its comops error line (without "comops: error: "), else
// UCX's first error (UCX refused the variant's settings at MPI_Init), else the MPI library's
// first fatal error line (MPICH), else Open MPI's boxed message that names a component (else its
// first one), as "Open MPI: FIRST SENTENCE (framework component)"; "" when there is none.
std::string variant_job_error(const std::string& output) {
  std::string comops, ucx, mpi;
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("comops: error: ", 0) == 0) comops = line.substr(15);
    if (const auto at = line.find("UCX  ERROR "); at != std::string::npos && ucx.empty())
      ucx = "UCX: " + line.substr(at + 11);
    if (line.find("Fatal error") != std::string::npos && mpi.empty()) mpi = line;
  }
  if (!comops.empty()) return comops;
  if (!ucx.empty()) return ucx;
  if (!mpi.empty()) return mpi;
  const std::vector<OpenMpiBox> boxes = open_mpi_boxes(output);
  if (boxes.empty()) return open_mpi_runtime_error(output);
  auto named = std::find_if(boxes.begin(), boxes.end(),
                            [](const OpenMpiBox& b) { return !b.component.empty(); });
  const OpenMpiBox& b = named != boxes.end() ? *named : boxes.front();
  return "Open MPI: " + b.sentence + (b.component.empty() ? "" : " (" + b.component + ")");
}

std::string variant_job_dir() {
  const char* dir = std::getenv(kJobVar);
  return dir != nullptr ? dir : "";
}

bool variant_job_probe() { return std::getenv(kProbeVar) != nullptr; }

void write_variant_point(const std::string& dir, const PointResult& point) {
  std::ofstream out(std::filesystem::path(dir) / kPointsFile, std::ios::app);
  out << point_result_to_json(point).dump() << "\n";
  out.flush();
  if (!out) throw RuntimeError(fmt::format("cannot write the variant's points into {}", dir));
}

VariantRun run_variant_job(const std::vector<std::string>& launcher, int np,
                           const std::vector<std::string>& arguments, const MpiVariant& variant,
                           bool probe) {
  const std::string label = variant.name.empty() ? "mpi" : variant.label();
  const JobDir dir(label);
  const std::vector<std::string> added = added_variables(variant, dir.path, probe);
  std::vector<std::string> names;
  for (const std::string& a : added) names.push_back(a.substr(0, a.find('=')));
  std::vector<std::string> words = launcher;
  for (const std::string& flag : launcher_export_flags(names)) words.push_back(flag);
  words.insert(words.end(), {"-n", std::to_string(np), self_executable("start a variant's job")});
  words.insert(words.end(), arguments.begin(), arguments.end());
  const std::vector<std::string> env = job_environment(added, names);
  const std::string output_path = dir.path + "/" + kOutputFile;
  const int status = run_job(label, std::move(words), env, output_path);
  const std::string text = read_text_file(output_path);
  const std::string points_text = read_text_file(std::filesystem::path(dir.path) / kPointsFile);
  check_job_ended_well(label, status, dir.path, text, !points_text.empty());
  VariantRun run;
  run.points = read_job_points(label, points_text);
  run.context = job_context(label, variant, dir.path);
  return run;
}

}  // namespace comops
