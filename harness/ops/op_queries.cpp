// The harness's questions about an op, answered from its descriptor
// (harness/ops/op_descriptors.cpp), and the input pattern every op's inputs are made of.
#include "harness/ops/op_queries.hpp"

#include "harness/ops/op_descriptors.hpp"

namespace comops {
namespace {

std::uint64_t mix(std::uint64_t x) {  // splitmix64 finaliser
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

const std::vector<OpKind>& all_ops() {
  static const std::vector<OpKind> ops = [] {
    std::vector<OpKind> v;
    for (const OpDescriptor& d : op_descriptors())
      if (!d.app()) v.push_back(d.kind);
    return v;
  }();
  return ops;
}

const std::vector<OpKind>& all_apps() {
  static const std::vector<OpKind> apps = [] {
    std::vector<OpKind> v;
    for (const OpDescriptor& d : op_descriptors())
      if (d.app()) v.push_back(d.kind);
    return v;
  }();
  return apps;
}

bool op_is_app(OpKind kind) { return op_descriptor(kind).app(); }

std::string_view op_name(OpKind kind) { return op_descriptor(kind).name; }

std::optional<OpKind> parse_op(std::string_view name) {
  for (const OpDescriptor& d : op_descriptors())
    if (d.name == name) return d.kind;
  return std::nullopt;
}

bool op_moves_data(OpKind kind) { return op_descriptor(kind).moves_data(); }
int op_min_np(OpKind kind) { return op_descriptor(kind).min_np; }

std::size_t send_count(const Args& a, int rank) { return op_descriptor(a.op).send_count(a, rank); }
std::size_t recv_count(const Args& a, int rank) { return op_descriptor(a.op).recv_count(a, rank); }

bool op_is_pair(OpKind kind) {
  const OpDescriptor& d = op_descriptor(kind);
  return d.pair() || d.one_sided();
}

std::string_view time_column(OpKind kind) {
  const OpDescriptor& d = op_descriptor(kind);
  return d.pingpong() ? "RTT_us" : d.windowed() ? "window_us" : "time_us";
}
std::string_view time_word(OpKind kind) {
  const OpDescriptor& d = op_descriptor(kind);
  return d.pingpong() ? "RTT" : d.windowed() ? "time per window" : "time";
}
std::string_view bw_column(OpKind kind) {
  return op_descriptor(kind).windowed() ? "stream_GBps" : "bw_GBps";
}

bool op_is_timed(const Args& a, int rank) {
  const OpDescriptor& d = op_descriptor(a.op);
  if (d.one_sided()) return rank == 0;
  return !d.pair() || rank < 2;
}

Elem pattern(std::uint64_t seed, int rank, std::size_t index) {
  std::uint64_t h = mix(seed ^ mix(static_cast<std::uint64_t>(rank) * 0x100000001b3ULL ^
                                   mix(static_cast<std::uint64_t>(index))));
  return static_cast<Elem>(h & 0xffffffffULL);
}

void fill_inputs(const Args& a, int rank, std::uint64_t seed, Buffers& b) {
  op_descriptor(a.op).fill(a, rank, seed, b);
}

std::int64_t count_wrong(const Args& a, int rank, std::uint64_t seed, const Buffers& b) {
  const OpDescriptor& d = op_descriptor(a.op);
  if (!d.moves_data() && !d.app()) return 0;
  std::int64_t wrong = 0;
  const std::size_t n = d.recv_count(a, rank);
  for (std::size_t i = 0; i < n; ++i) wrong += b.recv[i] != d.expected(a, rank, seed, i);
  return wrong;
}

int fault_rank(const Args& a) { return op_descriptor(a.op).fault_rank(a); }

double op_bytes_moved(const Args& a) {
  return op_descriptor(a.op).bw_factor(a) * static_cast<double>(a.bytes);
}

}  // namespace comops
