// What each COMOPS operation means, backend-free, as the harness asks it: names, buffer sizes,
// input fill, exact check, which participants are timed and checked, and how bytes and time make
// a bandwidth. The answers come from the op's descriptor (harness/ops/op_descriptors.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "comops/op.hpp"
#include "harness/ops/op_descriptors.hpp"

namespace comops {

/// All ops in the order a sweep runs them (the applications are not among them).
const std::vector<OpKind>& all_ops();

/// All applications (descriptors with app set, --app), in the order a sweep runs them.
const std::vector<OpKind>& all_apps();

/// True for an application (--app=matmul) rather than an op.
bool op_is_app(OpKind kind);

/// The name used on the command line and in every table and result row ("reduce-max", ...).
std::string_view op_name(OpKind kind);

/// Parses one op name; "reduce" and "all" are not accepted here (harness/ops/op_selection.hpp).
std::optional<OpKind> parse_op(std::string_view name);

/// True for the ops that move data, whose message size the sweep varies; false for barrier and
/// the applications, which run once per participant count at 0 bytes.
bool op_moves_data(OpKind kind);

/// Smallest participant count the op makes sense with (2 for ping-pong, 1 otherwise).
int op_min_np(OpKind kind);

/// True for the ops that run between participants 0 and 1 while the others idle (ping-pongs,
/// stream-bw, the one-sided ops): --pair chooses participant 1, and their rows say which pair.
bool op_is_pair(OpKind kind);

/// The name of the op's time column in every table ("RTT_us", "window_us", "time_us") and what
/// its time is in words ("RTT", "time per window", "time").
std::string_view time_column(OpKind kind);
std::string_view time_word(OpKind kind);

/// The name of the op's bandwidth column: "stream_GBps" for a windowed op, else "bw_GBps".
std::string_view bw_column(OpKind kind);

/// Buffer sizes in elements that participant `rank` needs for args (count elements per block).
std::size_t send_count(const Args& args, int rank);
std::size_t recv_count(const Args& args, int rank);

/// True when participant `rank` takes part in the timing of the op (a pair op: ranks 0 and 1;
/// a one-sided op: the origin, rank 0).
bool op_is_timed(const Args& args, int rank);

/// The input value of element `index` of participant `rank` for validation seed `seed`:
/// a 32-bit non-negative hash, so sums over up to 2^31 participants cannot overflow.
Elem pattern(std::uint64_t seed, int rank, std::size_t index);

/// Fills participant rank's send buffer with the pattern and its receive buffer with a poison
/// value no pattern can take.
void fill_inputs(const Args& args, int rank, std::uint64_t seed, Buffers& bufs);

/// Counts the elements of participant rank's receive buffer that differ from what the op (or
/// application) must have produced for seed. Participants that receive nothing count 0.
std::int64_t count_wrong(const Args& args, int rank, std::uint64_t seed, const Buffers& bufs);

/// The participant whose receive buffer the fault-injection switch corrupts (it checks data).
int fault_rank(const Args& args);

/// Bytes that cross between participants in one operation, the numerator of bw_GBps
/// (ping-pong: 2 x size per round trip; broadcast, reduce: size; gather, scatter: (np-1) x size;
/// stream-bw: window x size).
double op_bytes_moved(const Args& args);

}  // namespace comops
