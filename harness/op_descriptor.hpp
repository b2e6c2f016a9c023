// One descriptor per COMOPS operation, in the manner of nccl-tests' testColl: what the op is
// called, the buffers each participant needs, how inputs are filled and what must arrive, the
// bytes it moves and how its tables define bandwidth, and what kind of op it is. Everything the
// harness knows about an op comes from its descriptor (the table: harness/op_descriptors.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "comops/op.hpp"

namespace comops {

/// One parameter of an application: its option is --APP-NAME=LIST (--matmul-n=128,256), the
/// sweep runs every combination of the lists of an app's parameters.
struct AppParam {
  std::string_view name;      ///< in Args::app, the rows' "app" object and the tables ("n")
  std::string_view help;      ///< the option's --help text
  std::string_view defaults;  ///< the option's default list ("128")
  std::int64_t min;           ///< smallest accepted value
  std::int64_t max;           ///< largest accepted value
};

struct OpDescriptor {
  OpKind kind;
  /// On the command line and in every table, result row and gbench name ("reduce-max").
  std::string_view name;
  /// Non-empty for a reduction that its reduce_word (and comops, all) picks when --reduce-op
  /// names this word ("max", "sum"); empty for every other op.
  std::string_view reduce_alias;
  /// The --op word that picks this reduction together with the others of its kind, by
  /// --reduce-op: "reduce" (to a root) or "allreduce"; the name is reduce_word-reduce_alias.
  /// Empty for every op that is no reduction.
  std::string_view reduce_word = {};
  /// Has a root participant (Args::root): broadcast, reduce, gather, scatter.
  bool rooted;
  /// Moves data, so the sweep gives it message sizes and its rows a bandwidth; false: it runs
  /// once per participant count at 0 bytes (barrier).
  bool moves_data;
  /// A round trip between participants 0 and 1 while the others idle: only those two are timed,
  /// the time is an RTT (latency = RTT/2, rate = size/RTT) and --pair chooses the pair.
  bool pingpong;
  /// Runs between participants 0 and 1 while the others idle (--pair chooses participant 1;
  /// only those two are timed): every ping-pong, and the streaming bandwidth test.
  bool pair = false;
  /// Moves a window of Args::window messages per operation (stream-bw, osu_bw's method): its
  /// time is per window and its bandwidth window x size / time, named so in every table.
  bool windowed = false;
  /// One of the COMOPS paper's operations: --op=comops (the default) runs these; the others
  /// (the ops OSU and IMB users expect beside them) run when named or with --op=all.
  bool comops_set;
  /// One-sided (put, get): participant 0, the origin, writes into or reads from participant 1's
  /// exposed buffer while the others idle; only the origin is timed and --pair chooses the pair.
  bool one_sided = false;
  /// The target takes no part in a call (passive-target one-sided ops): the data of a call is
  /// complete at the target only after a barrier, so validation puts one between its calls.
  bool passive_target = false;
  /// Smallest participant count the op makes sense with.
  int min_np;
  /// Elements of participant rank's send and receive buffers (Args::count elements per block).
  std::size_t (*send_count)(const Args& args, int rank);
  std::size_t (*recv_count)(const Args& args, int rank);
  /// Fills participant rank's send buffer with its inputs for seed and its receive buffer with
  /// a value the op can never deliver.
  void (*fill)(const Args& args, int rank, std::uint64_t seed, Buffers& bufs);
  /// The exact value element i of participant rank's receive buffer holds after the op, given
  /// the inputs of fill.
  Elem (*expected)(const Args& args, int rank, std::uint64_t seed, std::size_t i);
  /// The participant whose receive buffer the fault-injection switch corrupts (it receives).
  int (*fault_rank)(const Args& args);
  /// Bytes moved per operation = bw_factor x Args::bytes: the numerator of bw_GBps (0: none).
  double (*bw_factor)(const Args& args);
  /// How many receivers share one sender's copy bandwidth, for the machine's copy ceiling
  /// (broadcast: np - 1 read the root's buffer; alltoall and allgather: np, every participant
  /// copies np - 1 blocks at once; every other op: 1).
  int (*ceiling_shared_by)(const Args& args);
  /// The line under each table title that defines the time and bandwidth columns.
  std::string_view definition;
  /// An application (--app), not an op: not in --op, comops or all; runs once per participant
  /// count and combination of its parameters (moves_data false), its result still checked
  /// exactly (fill and expected over its receive buffers).
  bool app = false;
  /// An application's parameters, each an option --NAME-PARAM (empty for an op).
  std::vector<AppParam> params = {};
};

/// Every descriptor, in the order a sweep runs the ops and the CLI lists them.
const std::vector<OpDescriptor>& op_descriptors();

/// The descriptor of kind; throws std::logic_error for a kind without one (a programming error).
const OpDescriptor& op_descriptor(OpKind kind);

}  // namespace comops
