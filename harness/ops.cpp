// Backend-free meaning of each COMOPS operation: fill, exact check, sizes and bandwidth factor.
#include "harness/ops.hpp"

#include <algorithm>
#include <array>

namespace comops {
namespace {

constexpr Elem kPoison = -1;  // patterns are non-negative, so a never-written element is wrong

struct OpInfo {
  OpKind kind;
  std::string_view name;
};

constexpr std::array<OpInfo, 7> kOps{{{OpKind::kPingpong, "pingpong"},
                                      {OpKind::kBroadcast, "broadcast"},
                                      {OpKind::kReduceMax, "reduce-max"},
                                      {OpKind::kReduceSum, "reduce-sum"},
                                      {OpKind::kGather, "gather"},
                                      {OpKind::kScatter, "scatter"},
                                      {OpKind::kBarrier, "barrier"}}};

std::uint64_t mix(std::uint64_t x) {  // splitmix64 finaliser
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// The value participant `rank` must hold at `index` of its receive buffer after the op.
Elem expected(const Args& a, int rank, std::uint64_t seed, std::size_t i) {
  switch (a.op) {
    case OpKind::kPingpong:
      return pattern(seed, 1 - rank, i);
    case OpKind::kBroadcast:
      return pattern(seed, a.root, i);
    case OpKind::kReduceMax: {
      Elem m = pattern(seed, 0, i);
      for (int r = 1; r < a.np; ++r) m = std::max(m, pattern(seed, r, i));
      return m;
    }
    case OpKind::kReduceSum: {
      Elem s = 0;
      for (int r = 0; r < a.np; ++r) s += pattern(seed, r, i);
      return s;
    }
    case OpKind::kGather:
      return pattern(seed, static_cast<int>(i / a.count), i % a.count);
    case OpKind::kScatter:
      return pattern(seed, a.root, rank * a.count + i);
    case OpKind::kBarrier:
      break;
  }
  return kPoison;
}

}  // namespace

const std::vector<OpKind>& all_ops() {
  static const std::vector<OpKind> ops = [] {
    std::vector<OpKind> v;
    for (const auto& o : kOps) v.push_back(o.kind);
    return v;
  }();
  return ops;
}

std::string_view op_name(OpKind kind) {
  for (const auto& o : kOps)
    if (o.kind == kind) return o.name;
  return "?";
}

std::optional<OpKind> parse_op(std::string_view name) {
  for (const auto& o : kOps)
    if (o.name == name) return o.kind;
  return std::nullopt;
}

bool op_has_data(OpKind kind) { return kind != OpKind::kBarrier; }
bool op_takes_size(OpKind kind) { return kind != OpKind::kBarrier; }
int op_min_np(OpKind kind) { return kind == OpKind::kPingpong ? 2 : 1; }

std::size_t send_count(const Args& a, int rank) {
  switch (a.op) {
    case OpKind::kPingpong:
      return rank < 2 ? a.count : 0;
    case OpKind::kBroadcast:
      return rank == a.root ? a.count : 0;
    case OpKind::kScatter:
      return rank == a.root ? a.count * a.np : 0;
    case OpKind::kReduceMax:
    case OpKind::kReduceSum:
    case OpKind::kGather:
      return a.count;
    case OpKind::kBarrier:
      break;
  }
  return 0;
}

std::size_t recv_count(const Args& a, int rank) {
  switch (a.op) {
    case OpKind::kPingpong:
      return rank < 2 ? a.count : 0;
    case OpKind::kBroadcast:
      return rank == a.root ? 0 : a.count;
    case OpKind::kReduceMax:
    case OpKind::kReduceSum:
      return rank == a.root ? a.count : 0;
    case OpKind::kGather:
      return rank == a.root ? a.count * a.np : 0;
    case OpKind::kScatter:
      return a.count;
    case OpKind::kBarrier:
      break;
  }
  return 0;
}

bool op_is_timed(const Args& a, int rank) { return a.op != OpKind::kPingpong || rank < 2; }

Elem pattern(std::uint64_t seed, int rank, std::size_t index) {
  std::uint64_t h = mix(seed ^ mix(static_cast<std::uint64_t>(rank) * 0x100000001b3ULL ^
                                   mix(static_cast<std::uint64_t>(index))));
  return static_cast<Elem>(h & 0xffffffffULL);
}

void fill_inputs(const Args& a, int rank, std::uint64_t seed, Buffers& b) {
  for (std::size_t i = 0; i < b.send_count; ++i) b.send[i] = pattern(seed, rank, i);
  std::fill(b.recv, b.recv + b.recv_count, kPoison);
}

std::int64_t count_wrong(const Args& a, int rank, std::uint64_t seed, const Buffers& b) {
  if (!op_has_data(a.op)) return 0;
  std::int64_t wrong = 0;
  const std::size_t n = recv_count(a, rank);
  for (std::size_t i = 0; i < n; ++i) wrong += b.recv[i] != expected(a, rank, seed, i);
  return wrong;
}

int fault_rank(const Args& a) {
  switch (a.op) {
    case OpKind::kPingpong:
      return 1;
    case OpKind::kBroadcast:
    case OpKind::kScatter:
      return a.np - 1 == a.root ? 0 : a.np - 1;
    default:
      return a.root;
  }
}

double op_bytes_moved(const Args& a) {
  const auto size = static_cast<double>(a.bytes);
  switch (a.op) {
    case OpKind::kPingpong:
      return 2.0 * size;
    case OpKind::kBroadcast:
    case OpKind::kReduceMax:
    case OpKind::kReduceSum:
      return size;
    case OpKind::kGather:
    case OpKind::kScatter:
      return size * (a.np - 1);
    case OpKind::kBarrier:
      break;
  }
  return 0.0;
}

}  // namespace comops
