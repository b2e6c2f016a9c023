// The descriptor of every COMOPS operation: the one place that says what an op is. A new op is
// one entry here (and its key in comops/op.hpp); see "Adding an operation" in docs/contributing.md.
#include "harness/ops/op_descriptors.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <stdexcept>
#include <string>

#include "comops/rma.hpp"
#include "harness/ops/app_descriptors.hpp"
#include "harness/ops/descriptor_parts.hpp"
#include "harness/ops/op_queries.hpp"

namespace comops {
namespace {

using parts::last_participant;
using parts::no_bytes;
using parts::one_sender_each;
using parts::participant_0;
using parts::participant_1;

constexpr Elem kPoison = -1;  // patterns are non-negative, so a never-written element is wrong

// Shared pieces ----------------------------------------------------------------------------

// Every op's inputs: the pattern of (seed, rank, index) in the send buffer, poison to receive.
void fill_pattern(const Args&, int rank, std::uint64_t seed, Buffers& b) {
  for (std::size_t i = 0; i < b.send_count; ++i) b.send[i] = pattern(seed, rank, i);
  std::fill(b.recv, b.recv + b.recv_count, kPoison);
}

std::size_t block(const Args& a, int) { return a.count; }
std::size_t none(const Args&, int) { return 0; }
std::size_t at_root(const Args& a, int rank) { return rank == a.root ? a.count : 0; }
std::size_t all_blocks_at_root(const Args& a, int rank) {
  return rank == a.root ? a.count * static_cast<std::size_t>(a.np) : 0;
}
int root_receives(const Args& a) { return a.root; }
// The last participant, or participant 0 when the root is the last: a receiver that is not root.
int last_non_root(const Args& a) { return a.np - 1 == a.root ? 0 : a.np - 1; }
double one_block(const Args&) { return 1.0; }
double blocks_of_the_others(const Args& a) { return a.np - 1; }

// pingpong ---------------------------------------------------------------------------------

std::size_t pingpong_count(const Args& a, int rank) { return rank < 2 ? a.count : 0; }
Elem pingpong_expected(const Args&, int rank, std::uint64_t seed, std::size_t i) {
  return pattern(seed, 1 - rank, i);
}
double round_trip(const Args&) { return 2.0; }

// stream-bw --------------------------------------------------------------------------------

// Participant 0 sends window messages of count elements, slot k from send[k*count, (k+1)*count)
// into recv[k*count, ...) of participant 1: the pattern's index runs over the whole window, so
// every slot holds distinct data and a message delivered into the wrong slot is counted wrong.
std::size_t stream_send(const Args& a, int rank) {
  return rank == 0 ? a.count * static_cast<std::size_t>(a.window) : 0;
}
std::size_t stream_recv(const Args& a, int rank) {
  return rank == 1 ? a.count * static_cast<std::size_t>(a.window) : 0;
}
Elem stream_expected(const Args&, int, std::uint64_t seed, std::size_t i) {
  return pattern(seed, 0, i);
}
double window_of_blocks(const Args& a) { return a.window; }

// bibw: participants 0 and 1 each send a window to the other at once (osu_bibw); slot k of one's
// send buffer lands in slot k of the other's receive buffer, so each receives the other's pattern
// (pingpong_expected) over the whole window.
std::size_t both_ways(const Args& a, int rank) {
  return rank < 2 ? a.count * static_cast<std::size_t>(a.window) : 0;
}
double both_windows(const Args& a) { return 2.0 * a.window; }

// broadcast --------------------------------------------------------------------------------

std::size_t broadcast_recv(const Args& a, int rank) { return rank == a.root ? 0 : a.count; }
Elem broadcast_expected(const Args& a, int, std::uint64_t seed, std::size_t i) {
  return pattern(seed, a.root, i);
}
int broadcast_shared_by(const Args& a) { return a.np - 1; }

// reduce-max, reduce-sum -------------------------------------------------------------------

Elem max_expected(const Args& a, int, std::uint64_t seed, std::size_t i) {
  Elem m = pattern(seed, 0, i);
  for (int r = 1; r < a.np; ++r) m = std::max(m, pattern(seed, r, i));
  return m;
}
Elem sum_expected(const Args& a, int, std::uint64_t seed, std::size_t i) {
  Elem s = 0;
  for (int r = 0; r < a.np; ++r) s += pattern(seed, r, i);
  return s;
}

// gather, scatter --------------------------------------------------------------------------

Elem gather_expected(const Args& a, int, std::uint64_t seed, std::size_t i) {
  return pattern(seed, static_cast<int>(i / a.count), i % a.count);
}
Elem scatter_expected(const Args& a, int rank, std::uint64_t seed, std::size_t i) {
  return pattern(seed, a.root, static_cast<std::size_t>(rank) * a.count + i);
}

// alltoall, allgather ---------------------------------------------------------------------

std::size_t all_blocks(const Args& a, int) { return a.count * static_cast<std::size_t>(a.np); }
// Block j of a receive buffer comes from participant j: its block `rank` (alltoall) or its
// only block (allgather, as gather_expected).
Elem alltoall_expected(const Args& a, int rank, std::uint64_t seed, std::size_t i) {
  return pattern(seed, static_cast<int>(i / a.count),
                 static_cast<std::size_t>(rank) * a.count + i % a.count);
}
// Every participant copies np-1 blocks at once: the cores' copy bandwidth is shared by np.
int every_participant_copies(const Args& a) { return a.np; }

// barrier ----------------------------------------------------------------------------------

Elem nothing_expected(const Args&, int, std::uint64_t, std::size_t) { return kPoison; }

// allreduce-max, allreduce-sum: every participant receives the reduction (max_expected,
// sum_expected), the fault lands on the last participant (last_participant).

// reduce-scatter-max, reduce-scatter-sum: participant rank receives block rank of the
// reduction (reduce_scatter_block), element i of it the reduction's element offset + i.

std::size_t scattered_block(const Args& a, int rank) {
  return reduce_scatter_block(a.count, a.np, rank).count;
}
Elem scattered_max(const Args& a, int rank, std::uint64_t seed, std::size_t i) {
  return max_expected(a, rank, seed, reduce_scatter_block(a.count, a.np, rank).offset + i);
}
Elem scattered_sum(const Args& a, int rank, std::uint64_t seed, std::size_t i) {
  return sum_expected(a, rank, seed, reduce_scatter_block(a.count, a.np, rank).offset + i);
}

// put, get and their fence and window variants (comops/rma.hpp) --------------------------------

// The origin (0) and the target (1) each hold one block per distinct slot of the window.
std::size_t rma_block(const Args& a) { return rma_shape(a.op, a.bytes).slots * a.count; }
std::size_t at_origin(const Args& a, int rank) { return rank == 0 ? rma_block(a) : 0; }
std::size_t at_target(const Args& a, int rank) { return rank == 1 ? rma_block(a) : 0; }
Elem origin_pattern(const Args&, int, std::uint64_t seed, std::size_t i) {
  return pattern(seed, 0, i);
}
Elem target_pattern(const Args&, int, std::uint64_t seed, std::size_t i) {
  return pattern(seed, 1, i);
}
double window_blocks(const Args& a) { return rma_shape(a.op, a.bytes).window; }

// A one-sided op's definition line, from what its key says (put or get, one call or a window,
// passive or active target).
std::string_view rma_definition(OpKind kind) {
  static std::deque<std::string> lines;  // the descriptors keep views of them
  const RmaShape s = rma_shape(kind, 0);
  const char* what = s.put ? "put" : "get";
  const std::string call =
      s.window > 1 ? fmt::format("a window of {} {}s of size bytes each", s.window, what)
                   : fmt::format("one {} of size bytes", what);
  return lines.emplace_back(fmt::format(
      "time = {} by participant 0 (origin) {} participant 1's exposed buffer, {}; bw = {}size / "
      "time; GB = 1e9 B; timed on the origin; median of repetitions",
      call, s.put ? "into" : "from",
      s.fence ? "one epoch opened and closed by both sides (active target: MPI_Win_fence)"
              : "completed by the origin alone (passive target: MPI_Win_flush, lock held across "
                "calls)",
      s.window > 1 ? fmt::format("{} x ", s.window) : ""));
}

// A one-sided op's descriptor: put moves the origin's block into the target, get the target's
// into the origin; only the origin is timed, the pair is --pair's.
OpDescriptor one_sided(OpKind kind, std::string_view name, bool put) {
  return {.kind = kind,
          .name = name,
          .timing = Timing::kOrigin,
          .target = rma_shape(kind, 0).fence ? Target::kActive : Target::kPassive,
          .min_np = 2,
          .send_count = put ? at_origin : at_target,
          .recv_count = put ? at_target : at_origin,
          .fill = fill_pattern,
          .expected = put ? origin_pattern : target_pattern,
          .fault_rank = put ? participant_1 : participant_0,
          .bw_factor = window_blocks,
          .ceiling_shared_by = one_sender_each,
          .definition = rma_definition(kind)};
}

// The tables' definition lines of the collectives: the size is the whole message, one block per
// participant, or nothing at all.
#define COMOPS_COLLECTIVE_TIME \
  "time = max over participants (min, avg beside it) of the per-iteration time; "
constexpr std::string_view kCollectiveTime =
    COMOPS_COLLECTIVE_TIME "bw = size / time; GB = 1e9 B; median of repetitions";
constexpr std::string_view kPerBlockTime = COMOPS_COLLECTIVE_TIME
    "size per participant; bw = (np-1) x size / time; GB = 1e9 B; median of repetitions";
constexpr std::string_view kExchangeTime = COMOPS_COLLECTIVE_TIME
    "size = block per participant pair; bw = (np-1) x size / time, the bytes each participant "
    "receives from the others (nccl-tests' bus bandwidth); GB = 1e9 B; median of repetitions";
constexpr std::string_view kBarrierTime = COMOPS_COLLECTIVE_TIME "median of repetitions";
constexpr std::string_view kAllreduceTime = COMOPS_COLLECTIVE_TIME
    "bw = size / time, size = the reduced vector (the size IMB and OSU give an allreduce; they "
    "report no bandwidth; nccl-tests' algbw); GB = 1e9 B; median of repetitions";
constexpr std::string_view kReduceScatterTime = COMOPS_COLLECTIVE_TIME
    "size = the vector every participant contributes; participant i receives block i of the "
    "reduction (size/np, one element more for the first ones: osu_reduce_scatter's split); bw = "
    "size / time (IMB and OSU report no bandwidth); GB = 1e9 B; median of repetitions";
#undef COMOPS_COLLECTIVE_TIME

// The descriptors, one named constructor each (the one-sided ops share one_sided above).

// A ping-pong, blocking or not: a round trip between participants 0 and 1.
OpDescriptor round_trip_descriptor(OpKind kind, std::string_view name, OpSet set,
                                   std::string_view definition) {
  return {.kind = kind,
          .name = name,
          .timing = Timing::kRoundTrip,
          .set = set,
          .min_np = 2,
          .send_count = pingpong_count,
          .recv_count = pingpong_count,
          .fill = fill_pattern,
          .expected = pingpong_expected,
          .fault_rank = participant_1,
          .bw_factor = round_trip,
          .ceiling_shared_by = one_sender_each,
          .definition = definition};
}

OpDescriptor broadcast_descriptor() {
  return {.kind = OpKind::kBroadcast,
          .name = "broadcast",
          .set = OpSet::kComops,
          .rooting = Rooting::kRooted,
          .min_np = 1,
          .send_count = at_root,
          .recv_count = broadcast_recv,
          .fill = fill_pattern,
          .expected = broadcast_expected,
          .fault_rank = last_non_root,
          .bw_factor = one_block,
          .ceiling_shared_by = broadcast_shared_by,
          .definition = kCollectiveTime};
}

// The exact value of a reduction's received element (max_expected, sum_expected).
using ExpectedFn = Elem (*)(const Args&, int, std::uint64_t, std::size_t);

// A reduce: the reduction of every participant's block, at the root.
OpDescriptor reduce_descriptor(OpKind kind, std::string_view name, std::string_view alias,
                               ExpectedFn expected) {
  return {.kind = kind,
          .name = name,
          .set = OpSet::kComops,
          .rooting = Rooting::kRooted,
          .reduction = {.word = "reduce", .alias = alias},
          .min_np = 1,
          .send_count = block,
          .recv_count = at_root,
          .fill = fill_pattern,
          .expected = expected,
          .fault_rank = root_receives,
          .bw_factor = one_block,
          .ceiling_shared_by = one_sender_each,
          .definition = kCollectiveTime};
}

OpDescriptor gather_descriptor() {
  return {.kind = OpKind::kGather,
          .name = "gather",
          .set = OpSet::kComops,
          .rooting = Rooting::kRooted,
          .min_np = 1,
          .send_count = block,
          .recv_count = all_blocks_at_root,
          .fill = fill_pattern,
          .expected = gather_expected,
          .fault_rank = root_receives,
          .bw_factor = blocks_of_the_others,
          .ceiling_shared_by = one_sender_each,
          .definition = kPerBlockTime};
}

OpDescriptor scatter_descriptor() {
  return {.kind = OpKind::kScatter,
          .name = "scatter",
          .set = OpSet::kComops,
          .rooting = Rooting::kRooted,
          .min_np = 1,
          .send_count = all_blocks_at_root,
          .recv_count = block,
          .fill = fill_pattern,
          .expected = scatter_expected,
          .fault_rank = last_non_root,
          .bw_factor = blocks_of_the_others,
          .ceiling_shared_by = one_sender_each,
          .definition = kPerBlockTime};
}

OpDescriptor alltoall_descriptor() {
  return {.kind = OpKind::kAlltoall,
          .name = "alltoall",
          .min_np = 1,
          .send_count = all_blocks,
          .recv_count = all_blocks,
          .fill = fill_pattern,
          .expected = alltoall_expected,
          .fault_rank = last_participant,
          .bw_factor = blocks_of_the_others,
          .ceiling_shared_by = every_participant_copies,
          .definition = kExchangeTime};
}

OpDescriptor allgather_descriptor() {
  return {.kind = OpKind::kAllgather,
          .name = "allgather",
          .min_np = 1,
          .send_count = block,
          .recv_count = all_blocks,
          .fill = fill_pattern,
          .expected = gather_expected,
          .fault_rank = last_participant,
          .bw_factor = blocks_of_the_others,
          .ceiling_shared_by = every_participant_copies,
          .definition = kExchangeTime};
}

OpDescriptor barrier_descriptor() {
  return {.kind = OpKind::kBarrier,
          .name = "barrier",
          .set = OpSet::kComops,
          .payload = Payload::kNone,
          .min_np = 1,
          .send_count = none,
          .recv_count = none,
          .fill = fill_pattern,
          .expected = nothing_expected,
          .fault_rank = root_receives,
          .bw_factor = no_bytes,
          .ceiling_shared_by = one_sender_each,
          .definition = kBarrierTime};
}

// An allreduce: the reduction of every participant's block, at every participant.
OpDescriptor allreduce_descriptor(OpKind kind, std::string_view name, std::string_view alias,
                                  ExpectedFn expected) {
  return {.kind = kind,
          .name = name,
          .reduction = {.word = "allreduce", .alias = alias},
          .min_np = 1,
          .send_count = block,
          .recv_count = block,
          .fill = fill_pattern,
          .expected = expected,
          .fault_rank = last_participant,
          .bw_factor = one_block,
          .ceiling_shared_by = one_sender_each,
          .definition = kAllreduceTime};
}

// A reduce-scatter: the reduction of every participant's vector, block i to participant i.
OpDescriptor reduce_scatter_descriptor(OpKind kind, std::string_view name, std::string_view alias,
                                       ExpectedFn expected) {
  return {.kind = kind,
          .name = name,
          .reduction = {.word = "reduce-scatter", .alias = alias},
          .min_np = 1,
          .send_count = block,
          .recv_count = scattered_block,
          .fill = fill_pattern,
          .expected = expected,
          .fault_rank = participant_0,  // receives at least one element
          .bw_factor = one_block,
          .ceiling_shared_by = one_sender_each,
          .definition = kReduceScatterTime};
}

OpDescriptor stream_bw_descriptor() {
  return {.kind = OpKind::kStreamBw,
          .name = "stream-bw",
          .timing = Timing::kWindow,
          .min_np = 2,
          .send_count = stream_send,
          .recv_count = stream_recv,
          .fill = fill_pattern,
          .expected = stream_expected,
          .fault_rank = participant_1,
          .bw_factor = window_of_blocks,
          .ceiling_shared_by = one_sender_each,
          .definition =
              "streaming bandwidth, not a ping-pong: participant 0 sends a window of W "
              "messages of size back to back to participant 1, which acks the window "
              "(osu_bw); window_us = time per window; stream_GBps: bw = W x size / "
              "window_us; GB = 1e9 B; median of repetitions"};
}

OpDescriptor bibw_descriptor() {
  return {.kind = OpKind::kBibw,
          .name = "bibw",
          .timing = Timing::kWindow,
          .min_np = 2,
          .send_count = both_ways,
          .recv_count = both_ways,
          .fill = fill_pattern,
          .expected = pingpong_expected,
          .fault_rank = participant_1,
          .bw_factor = both_windows,
          .ceiling_shared_by = one_sender_each,
          .definition =
              "bidirectional streaming bandwidth: participants 0 and 1 each send a "
              "window of W messages of size to the other at once and wait for both "
              "directions (osu_bibw); window_us = time per window; stream_GBps: bw = 2 "
              "x W x size / window_us; GB = 1e9 B; median of repetitions"};
}

// A function's static, so that other files' static initialisers (gtest's ValuesIn(all_ops()))
// find it built.
const std::vector<OpDescriptor>& descriptors() {
  static const std::vector<OpDescriptor> table = {
      round_trip_descriptor(
          OpKind::kPingpong, "pingpong", OpSet::kComops,
          "RTT = round trip between participants 0 and 1; latency = RTT/2; bw = one-way 2 x size "
          "/ RTT; rate = COMOPS size / RTT; GB = 1e9 B; median of repetitions"),
      broadcast_descriptor(),
      reduce_descriptor(OpKind::kReduceMax, "reduce-max", "max", max_expected),
      reduce_descriptor(OpKind::kReduceSum, "reduce-sum", "sum", sum_expected),
      gather_descriptor(),
      scatter_descriptor(),
      alltoall_descriptor(),
      allgather_descriptor(),
      barrier_descriptor(),
      allreduce_descriptor(OpKind::kAllreduceMax, "allreduce-max", "max", max_expected),
      allreduce_descriptor(OpKind::kAllreduceSum, "allreduce-sum", "sum", sum_expected),
      reduce_scatter_descriptor(OpKind::kReduceScatterMax, "reduce-scatter-max", "max",
                                scattered_max),
      reduce_scatter_descriptor(OpKind::kReduceScatterSum, "reduce-scatter-sum", "sum",
                                scattered_sum),
      one_sided(OpKind::kPut, "put", true),
      one_sided(OpKind::kGet, "get", false),
      one_sided(OpKind::kPutBw, "put-bw", true),
      one_sided(OpKind::kGetBw, "get-bw", false),
      one_sided(OpKind::kPutFence, "put-fence", true),
      one_sided(OpKind::kGetFence, "get-fence", false),
      one_sided(OpKind::kPutFenceBw, "put-fence-bw", true),
      one_sided(OpKind::kGetFenceBw, "get-fence-bw", false),
      round_trip_descriptor(
          OpKind::kPingpongNb, "pingpong-nb", OpSet::kExtra,
          "non-blocking ping-pong (Irecv posted before Isend, Waitall); RTT = round trip between "
          "participants 0 and 1; latency = RTT/2; bw = one-way 2 x size / RTT; rate = COMOPS "
          "size / RTT; GB = 1e9 B; median of repetitions"),
      stream_bw_descriptor(),
      bibw_descriptor(),
      // The applications (--app), one file each: harness/ops/<app>_descriptor.cpp.
      matmul_descriptor(),
      em3d_descriptor(),
  };
  return table;
}

}  // namespace

const std::vector<OpDescriptor>& op_descriptors() { return descriptors(); }

const OpDescriptor& op_descriptor(OpKind kind) {
  for (const OpDescriptor& d : descriptors())
    if (d.kind == kind) return d;
  throw std::logic_error("an op without a descriptor in harness/ops/op_descriptors.cpp");
}

}  // namespace comops
