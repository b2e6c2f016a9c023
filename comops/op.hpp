// The one header a backend needs: operations, arguments, buffers, the participant communicator,
// per-point operation instances and the backend interfaces the harness drives.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <memory>
#include <new>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace CLI {
class App;
}

namespace comops {

/// Every operation moves 8-byte signed integers; message sizes are multiples of this.
using Elem = std::int64_t;
inline constexpr std::size_t kElemBytes = sizeof(Elem);

/// The COMOPS operations, the key of an op everywhere. What each one means (name, buffers, fill,
/// check, bandwidth) is its descriptor in harness/ops/op_descriptors.cpp; which backends implement
/// it, their op tables (OpTable).
enum class OpKind {
  kPingpong,
  kBroadcast,
  kReduceMax,
  kReduceSum,
  kGather,
  kScatter,
  kBarrier,
  kAlltoall,
  kAllgather,
  kAllreduceMax,
  kAllreduceSum,
  kPut,
  kGet,
  kPutBw,
  kGetBw,
  kPutFence,
  kGetFence,
  kPutFenceBw,
  kGetFenceBw,
  kPingpongNb,  ///< ping-pong with MPI_Isend/MPI_Irecv/MPI_Waitall (split-phase on swcc)
  kStreamBw,    ///< a window of Args::window messages from participant 0 to 1, then an ack
  kMatmul,      ///< application (--app=matmul): C = A x B, rows of A and C spread, B read remotely
  kEm3d,        ///< application (--app=em3d): the Split-C EM3D benchmark (comops/apps/em3d/)
  /// participant i receives block i of the reduction (reduce_scatter_block)
  kReduceScatterMax,
  kReduceScatterSum,
  kBibw,  ///< participants 0 and 1 each send a window of Args::window messages to the other
};

/// Reduction used by Comm::allreduce.
enum class Reduce { kMin, kMax, kSum };

/// The ops that reduce, each with its element-wise reduction: the key list's companion (a new
/// reduction is a line here beside its key).
// clang-format off
inline constexpr std::pair<OpKind, Reduce> kReductions[] = {
    {OpKind::kReduceMax, Reduce::kMax},
    {OpKind::kReduceSum, Reduce::kSum},
    {OpKind::kAllreduceMax, Reduce::kMax},
    {OpKind::kAllreduceSum, Reduce::kSum},
    {OpKind::kReduceScatterMax, Reduce::kMax},
    {OpKind::kReduceScatterSum, Reduce::kSum},
};
// clang-format on

/// The element-wise reduction an op performs (kReductions). Throws std::logic_error for an op
/// that reduces nothing.
inline Reduce reduction_of(OpKind op) {
  for (const auto& [kind, reduce] : kReductions)
    if (kind == op) return reduce;
  throw std::logic_error("reduction_of: the op reduces nothing");
}

/// One participant's block of a reduce-scatter's result: count elements from offset.
struct ScatterBlock {
  std::size_t offset;
  std::size_t count;
};

/// osu_reduce_scatter's split of a vector of count elements over np participants: count / np
/// elements each, one more for each of the first count % np participants (so with fewer
/// elements than participants, the first count get one each and the others none).
inline ScatterBlock reduce_scatter_block(std::size_t count, int np, int rank) {
  const auto n = static_cast<std::size_t>(np), r = static_cast<std::size_t>(rank);
  const std::size_t per = count / n, extra = count % n;
  return {r * per + (r < extra ? r : extra), per + (r < extra ? 1 : 0)};
}

/// Thrown for bad input the user can fix (exit code 2).
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Thrown for failures at run time: allocation, launcher, I/O, the backend (exit code 3).
struct RuntimeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A run-time failure every participant of the point raises together (agreed through the Comm),
/// so no participant is left waiting for another: a backend lets it end spmd normally.
struct AgreedError : RuntimeError {
  using RuntimeError::RuntimeError;
};

/// An application's parameters at one point, in its descriptor's order (matmul: {{"n", 256}});
/// empty for an op. The sweep expands the app's options (--matmul-n=LIST) into points.
using AppParams = std::vector<std::pair<std::string, std::int64_t>>;

/// One point of the sweep as one participant sees it.
struct Args {
  OpKind op = OpKind::kPingpong;
  int np = 2;             ///< participants in this point
  std::size_t bytes = 0;  ///< message size: per participant block for gather/scatter
  std::size_t count = 0;  ///< bytes / kElemBytes
  int root = 0;           ///< root of rooted collectives; ping-pong runs between 0 and 1
  int window = 1;         ///< messages per operation of a windowed op (stream-bw: --window)
  AppParams app;          ///< an application's parameters (empty for an op)

  /// The value of the application parameter `name`; throws std::logic_error when the point has
  /// none of that name (a programming error: the descriptor declares every parameter).
  std::int64_t param(const std::string& name) const {
    for (const auto& [key, value] : app)
      if (key == name) return value;
    throw std::logic_error("Args::param: no application parameter " + name);
  }
};

/// Where the participants of one point live: participant i runs on MPI world rank ranks[i].
/// Process backends take it as it is (participant 0 is world rank 0, no rank twice); thread
/// backends run size() threads in world rank 0's process.
struct Group {
  std::vector<int> ranks;
  int size() const { return static_cast<int>(ranks.size()); }
  /// World ranks 0 .. np-1 (a single node, or the launcher's order).
  static Group first(int np) {
    Group g;
    for (int r = 0; r < np; ++r) g.ranks.push_back(r);
    return g;
  }
  bool operator==(const Group&) const = default;
  bool operator<(const Group& o) const { return ranks < o.ranks; }
};

/// One participant's private buffers, allocated and owned by the harness (page aligned, touched
/// on the participant's bound core). Sizes are in elements.
struct Buffers {
  Elem* send = nullptr;
  std::size_t send_count = 0;
  Elem* recv = nullptr;
  std::size_t recv_count = 0;
};

/// The memory of one participant's send and receive buffers, owned by `owner` (the handle frees
/// it: collectively for memory the participants share, so every participant drops it at the same
/// point of the run).
struct BufferSpace {
  std::shared_ptr<void> owner;
  Elem* send = nullptr;
  Elem* recv = nullptr;
};

/// The group of participants of one point, seen from one participant: an MPI sub-communicator
/// or a team of threads. All calls are collective over the group unless stated otherwise.
class Comm {
 public:
  virtual ~Comm() = default;
  /// This participant's send and receive buffers of a point (counts in elements), page aligned
  /// and zeroed, touched by the calling participant (its pages land on its core's memory). By
  /// default private memory, one participant at a time; a team of processes that read each
  /// other's buffers (shmp) places them in a window they share, collectively. Throws
  /// std::bad_alloc where this participant alone failed, AgreedError where all did together.
  virtual BufferSpace allocate_buffers(std::size_t send_count, std::size_t recv_count) {
    constexpr std::size_t kPage = 4096;
    const auto round = [](std::size_t count) {
      return (std::max<std::size_t>(count * kElemBytes, kElemBytes) + kPage - 1) / kPage * kPage;
    };
    const std::size_t send_bytes = round(send_count), bytes = send_bytes + round(recv_count);
    void* p = std::aligned_alloc(kPage, bytes);
    if (p == nullptr) throw std::bad_alloc();
    std::memset(p, 0, bytes);
    BufferSpace space{std::shared_ptr<void>(p, [](void* q) { std::free(q); })};
    space.send = static_cast<Elem*>(p);
    space.recv = reinterpret_cast<Elem*>(static_cast<char*>(p) + send_bytes);
    return space;
  }
  virtual int rank() const = 0;  ///< 0 .. size()-1; participant 0 lives on world rank 0
  virtual int size() const = 0;
  virtual void barrier() = 0;
  /// Element-wise reduction of n values in place; every participant gets the result.
  virtual void allreduce(double* values, int n, Reduce op) = 0;
  virtual void allreduce(std::int64_t* values, int n, Reduce op) = 0;

  double allreduce(double v, Reduce op) {
    allreduce(&v, 1, op);
    return v;
  }
  std::int64_t allreduce(std::int64_t v, Reduce op) {
    allreduce(&v, 1, op);
    return v;
  }
};

/// Named event counters of a backend (for example the DSM's hits and misses); cumulative.
using Counters = std::vector<std::pair<std::string, std::int64_t>>;

/// One participant's instance of an operation at one point. Built after the buffers, destroyed
/// before they are freed; the constructor may allocate shared state collectively.
class OpInstance {
 public:
  virtual ~OpInstance() = default;
  /// Performs the operation once. Every participant calls it the same number of times.
  virtual void run() = 0;
  /// Cumulative counters since construction; the same names in the same order on every
  /// participant. The harness reports their sum over participants for the timed iterations.
  virtual Counters counters() const { return {}; }
};

/// Builds one participant's instance; called on every participant of a point.
using OpFactory = std::function<std::unique_ptr<OpInstance>(Comm&, const Args&, Buffers&)>;

/// One op a backend implements: its key and the factory of its instances.
struct OpEntry {
  OpKind kind;
  OpFactory make;
};

/// The ops a configured backend implements, each kind at most once; the harness binds an op of a
/// point through this table (harness/ops/op_binder.hpp). A backend's table is generated from the op
/// list in its CMakeLists.txt (comops_add_ops, cmake/comops_ops.cmake): each op file gives its
/// entries with op_entries.
using OpTable = std::vector<OpEntry>;

/// One entry per kind, each built by make: an op file's entries ({kReduceMax, kReduceSum}).
inline OpTable op_entries(std::initializer_list<OpKind> kinds, const OpFactory& make) {
  OpTable table;
  for (OpKind kind : kinds) table.push_back({kind, make});
  return table;
}

/// One entry per kind, each built by a factory that takes the configured backend's setting first
/// (the shm scheme, the swcc configuration), bound to setting.
template <class Setting>
OpTable op_entries(std::initializer_list<OpKind> kinds,
                   std::unique_ptr<OpInstance> (*make)(Setting, Comm&, const Args&, Buffers&),
                   const std::decay_t<Setting>& setting) {
  return op_entries(kinds, [make, setting](Comm& comm, const Args& args, Buffers& bufs) {
    return make(setting, comm, args, bufs);
  });
}

/// How a backend's participants are realised; decides how the harness binds them.
enum class Participants { kProcesses, kThreads };

/// One configured backend (a label in the tables): "mpi", "shm-direct", "swcc-64", ...
class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string label() const = 0;
  virtual Participants participants() const = 0;
  /// True when every participant of a point must run on one node (threads of one process;
  /// processes sharing a node's memory): the harness then places them on node 0.
  virtual bool node_local() const { return participants() == Participants::kThreads; }
  /// The ops this backend implements (an op missing here is skipped by the sweep with a note).
  virtual OpTable ops() const = 0;
  /// Largest participant count this backend can run in this process group (for processes: the
  /// MPI world size; for threads: any).
  virtual int max_participants() const = 0;
  /// Called on every MPI world rank, in the same order everywhere with the same group: runs
  /// body(comm) once per participant of the group and returns on every world rank when this
  /// rank's share is done. Participant 0 runs on world rank 0. An exception thrown by body on any
  /// participant must come out of spmd on world rank 0 (threads: never escape the parallel
  /// region; never hang the others).
  virtual void spmd(const Group& group, const std::function<void(Comm&)>& body) = 0;
  /// spmd on world ranks 0 .. np-1.
  void spmd(int np, const std::function<void(Comm&)>& body) { spmd(Group::first(np), body); }
  /// Backend facts for the JSON context (library version, scheme, block size, ...).
  virtual nlohmann::json context() const { return nlohmann::json::object(); }
};

/// A backend name the user can give to --backend (e.g. "shm"), which may expand into several
/// configured backends (shm-staged and shm-direct). Registered explicitly in comops/registry.cpp.
class BackendFamily {
 public:
  virtual ~BackendFamily() = default;
  virtual std::string name() const = 0;
  virtual std::string description() const = 0;
  /// True when its participants are MPI processes (the launcher then sizes the MPI world).
  virtual bool needs_processes() const = 0;
  /// Adds this family's own options (e.g. --scheme) to the command line.
  virtual void add_options(CLI::App& app) { (void)app; }
  /// Checks this family's option values after parsing; throws UsageError.
  virtual void validate() const {}
  /// Creates the configured backends; called after MPI_Init on every world rank.
  virtual std::vector<std::unique_ptr<Backend>> create() = 0;
};

/// Every backend family comops knows, in the order --backend=all runs them.
std::vector<std::unique_ptr<BackendFamily>> backend_families();

}  // namespace comops
