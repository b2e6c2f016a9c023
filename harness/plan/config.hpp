// The validated configuration of one comops run, built from the command line.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "comops/op.hpp"
#include "harness/launch/mpi_variant.hpp"
#include "harness/measure/measure.hpp"
#include "harness/runtime/pinning.hpp"
#include "harness/runtime/placement.hpp"

namespace comops {

/// Where the output files go; empty paths are not written.
struct OutputPaths {
  std::string dir;  ///< --output-dir, created if missing
  std::string csv;
  std::string json;
  std::string gbench_json;
  std::string table;  ///< the stdout tables, also written here (with --output-dir)
};

/// Everything a run needs, identical on every rank.
struct Config {
  std::vector<std::string> backends;  ///< family names, in run order
  std::vector<OpKind> ops;            ///< in run order; the --app applications last
  /// Per application of ops: every combination of its parameters (--APP-PARAM lists).
  std::map<OpKind, std::vector<AppParams>> app_points;
  std::vector<int> np_list;           ///< participant counts for the time-versus-nprocs tables
  bool np_given = false;              ///< --np was given (otherwise chosen from the machine)
  std::vector<std::size_t> sizes;     ///< bytes, for the bandwidth-versus-size tables
  std::size_t np_bytes = 800u << 10;  ///< size of the time-versus-nprocs tables (800K)
  bool np_bytes_given = false;        ///< --np-bytes was given (np tables even at one np)
  int size_np = 0;                    ///< participants of the size tables (0: chosen)
  MeasureOptions measure;
  BindPolicy bind = BindPolicy::kCompact;
  PlacementPolicy placement = PlacementPolicy::kPacked;  ///< --placement
  std::string pair = "auto";                             ///< --pair as given
  std::vector<Pair> pairs;        ///< ping-pong pairs, resolved against the nodes (resolve_pairs)
  int window = 64;                ///< --window: messages per window of stream-bw (osu_bw's 64)
  bool limits = true;             ///< measure the machine limits
  bool placement_probe = true;    ///< --placement-probe: probe placement beside every point
  std::string progress = "auto";  ///< auto (stderr is a terminal), always, lines, never
  std::string mpiexec;            ///< launcher to use when run directly (empty: mpiexec)
  double watchdog_s = 60;         ///< --watchdog: a rank's base allowance for a step; 0: off
  double startup_s = 0;           ///< --startup-timeout: the start-up bound; 0: by host count
  OutputPaths out;
  bool force = false;                 ///< --force: write into a non-empty --output-dir
  std::vector<std::string> warnings;  ///< one line each, printed once by rank 0 before the run
  std::string command_line;
  std::vector<std::string> arguments;    ///< argv[1..] as given (a variant's job gets them again)
  std::vector<MpiVariant> mpi_variants;  ///< --mpi-variant, in order
  std::size_t inject_point = 0;  ///< hidden: the sweep point where measure.inject_throw applies
};

/// Fills in what depends on the MPI world and checks participant counts against it.
/// world_size: MPI processes comops runs in; launched: comops started under a launcher;
/// process_backends: a selected backend uses MPI processes; cores: cores the process may use.
/// Throws UsageError.
void finalize_config(Config& config, int world_size, bool launched, bool process_backends,
                     int cores);

/// The largest participant count any point needs.
int max_np(const Config& config);

/// Whether ops that take a size get time-versus-nprocs tables (at np_bytes): when more than one
/// np is asked for (after finalize_config) or --np-bytes was given.
bool np_tables(const Config& config);

/// Refuses (UsageError) an --output-dir that exists and is not a directory, or holds any entry
/// while --force is not given. Nothing to check without --output-dir.
void check_output_dir(const Config& config);

}  // namespace comops
