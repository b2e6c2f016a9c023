// One descriptor per COMOPS operation, in the manner of nccl-tests' testColl: what the op is
// called, the buffers each participant needs, how inputs are filled and what must arrive, the
// bytes it moves and how its tables define bandwidth, and what kind of op it is. Everything the
// harness knows about an op comes from its descriptor (the table: harness/ops/op_descriptors.cpp).
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

/// Who takes part in an op and what its time is.
enum class Timing {
  /// Every participant runs it; the time is the max over participants (min, avg beside it).
  kCollective,
  /// A round trip between participants 0 and 1 while the others idle: only those two are timed,
  /// the time is an RTT (latency = RTT/2, rate = size/RTT) and --pair chooses the pair.
  kRoundTrip,
  /// A window of Args::window messages from participant 0 to 1, then an ack (osu_bw's method):
  /// only those two are timed, the time is per window and the bandwidth window x size / time.
  kWindow,
  /// One-sided (put, get): participant 0, the origin, writes into or reads from participant 1's
  /// exposed buffer while the others idle; only the origin is timed and --pair chooses the pair.
  kOrigin,
};

/// Which selection runs an op: --op=comops (the default), --op=all only, or --app.
enum class OpSet {
  kComops,  ///< one of the COMOPS paper's operations
  kExtra,   ///< the ops OSU and IMB users expect beside them: run when named or with --op=all
  kApp,     ///< an application (--app), not an op: not in --op, comops or all
};

/// Whether an op has a root participant (Args::root): broadcast, reduce, gather, scatter.
enum class Rooting { kNone, kRooted };

/// Whether an op moves data: the sweep gives it message sizes and its rows a bandwidth; kNone
/// runs once per participant count at 0 bytes (barrier, the applications).
enum class Payload { kSized, kNone };

/// How a one-sided op's calls complete at the target: kActive, inside an epoch both sides open
/// and close; kPassive, by the origin alone, so validation puts a barrier between its calls.
enum class Target { kActive, kPassive };

/// A reduction's names: --op=WORD picks it when --reduce-op=ALIAS ("reduce", "max" is
/// reduce-max); both empty for an op that reduces nothing.
struct ReductionNames {
  std::string_view word;
  std::string_view alias;
};

struct OpDescriptor {
  OpKind kind;
  /// On the command line and in every table, result row and gbench name ("reduce-max").
  std::string_view name;
  Timing timing = Timing::kCollective;
  OpSet set = OpSet::kExtra;
  Rooting rooting = Rooting::kNone;
  Payload payload = Payload::kSized;
  Target target = Target::kActive;
  ReductionNames reduction = {};
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
  /// An application's parameters, each an option --NAME-PARAM (empty for an op).
  std::vector<AppParam> params = {};

  bool rooted() const { return rooting == Rooting::kRooted; }
  bool moves_data() const { return payload == Payload::kSized; }
  bool pingpong() const { return timing == Timing::kRoundTrip; }
  /// Runs between participants 0 and 1 while the others idle (--pair chooses participant 1):
  /// every ping-pong and the streaming bandwidth test.
  bool pair() const { return timing == Timing::kRoundTrip || timing == Timing::kWindow; }
  bool windowed() const { return timing == Timing::kWindow; }
  bool one_sided() const { return timing == Timing::kOrigin; }
  bool passive_target() const { return target == Target::kPassive; }
  bool comops_set() const { return set == OpSet::kComops; }
  /// An application (--app): runs once per participant count and combination of its
  /// parameters, its result still checked exactly (fill and expected over its receive buffers).
  bool app() const { return set == OpSet::kApp; }
};

/// Every descriptor, in the order a sweep runs the ops and the CLI lists them.
const std::vector<OpDescriptor>& op_descriptors();

/// The descriptor of kind; throws std::logic_error for a kind without one (a programming error).
const OpDescriptor& op_descriptor(OpKind kind);

}  // namespace comops
