// EM3D (the Split-C benchmark), backend-free: its parameters, the deterministic bipartite graph of
// E and H nodes spread over participants, the initial values, the exact integer update rule and
// the serial reference that every backend's result is checked against.
//
// The graph: every participant owns `nodes` E nodes and `nodes` H nodes. Each node has `degree`
// in-edges from nodes of the other kind (an E node reads H nodes, an H node reads E nodes), each
// with an integer weight in 1..kMaxWeight. Of the nodes * degree edges of one kind on one
// participant, exactly floor(nodes * degree * remote_pct / 100) come from nodes of other
// participants, spread evenly over the participant's edges (edge k, counted node by node, is
// remote when floor((k + 1) * pct / 100) > floor(k * pct / 100)). A remote edge's owner is one of
// the other participants and its node any of that owner's nodes, both drawn uniformly.
//
// The values are integers modulo the prime kModulus (2^31 - 1). One iteration is two half-steps:
// first every E node, then every H node, is set to
//     value := (value - sum over its edges of weight * source value) mod kModulus
// (Split-C's em3d `value -= coeff * from_value`); a half-step reads only the other kind's values,
// so the order in which a half-step visits its nodes does not matter. Every product is below
// 2^31 * 2^8 and every partial sum is reduced, so nothing overflows 64 bits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace comops::em3d {

/// Values live in [0, kModulus).
inline constexpr std::uint64_t kModulus = 2147483647;  // 2^31 - 1, prime
/// Edge weights are drawn from 1..kMaxWeight.
inline constexpr std::uint64_t kMaxWeight = 255;

/// What one EM3D run is.
struct Params {
  std::size_t nodes = 1000;  ///< E nodes per participant (and as many H nodes)
  std::size_t degree = 10;   ///< in-edges per node, from nodes of the other kind
  unsigned remote_pct =
      10;  ///< percent (0..100) of each kind's edges that come from other participants
  std::size_t iters = 10;  ///< iterations, each an E half-step then an H half-step
};

/// Throws std::invalid_argument with one line saying what is wrong: nodes or degree 0, a
/// percentage above 100, remote edges with fewer than 2 participants, more than 2^31 nodes in all.
void check(const Params& p, int np);

/// The two kinds of node.
enum class Kind { kE = 0, kH = 1 };

/// One in-edge: the source node (of the other kind) and its weight.
struct Edge {
  std::uint32_t owner = 0;   ///< participant that owns the source node
  std::uint32_t index = 0;   ///< the source node's index on its owner, 0..nodes-1
  std::uint64_t weight = 0;  ///< 1..kMaxWeight
  bool operator==(const Edge&) const = default;
};

/// The nodes of one kind on one participant: node i's in-edges are edges[i*degree, (i+1)*degree).
struct Side {
  std::vector<Edge> edges;
  std::size_t remote_count(int self) const;  ///< edges whose owner is not `self`
};

/// One participant's part of the graph: its E nodes' edges (from H nodes) and its H nodes' edges
/// (from E nodes).
struct Part {
  Side e, h;
  const Side& side(Kind k) const { return k == Kind::kE ? e : h; }
};

/// Participant `self`'s part of the graph of (p, np, seed); every participant can build its own
/// without the others'. Checks p (check()).
Part make_part(const Params& p, int np, std::uint64_t seed, int self);

/// Whether edge k (0-based, counted over a side's nodes * degree edges) is remote at `pct` percent.
inline bool edge_is_remote(std::uint64_t k, unsigned pct) {
  return (k + 1) * pct / 100 > k * pct / 100;
}

/// The initial values of participant `owner`'s nodes of one kind (`nodes` values in [0, kModulus)).
std::vector<std::uint64_t> initial_values(const Params& p, std::uint64_t seed, Kind kind,
                                          int owner);

/// The new value of a node: (old - sum of weight * source(edge)) mod kModulus, where
/// source(const Edge&) returns the source node's current value (already in [0, kModulus)).
template <class Source>
std::uint64_t update(std::uint64_t old, const Edge* edges, std::size_t degree, Source&& source) {
  std::uint64_t sum = 0;
  for (std::size_t j = 0; j < degree; ++j)
    sum = (sum + edges[j].weight * source(edges[j])) % kModulus;
  return (old + kModulus - sum) % kModulus;
}

/// Values of every node of the graph, participant by participant: e[owner * nodes + index].
struct Values {
  std::vector<std::uint64_t> e, h;
  bool operator==(const Values&) const = default;
};

/// Every participant's part of the graph (parts[owner]).
std::vector<Part> make_graph(const Params& p, int np, std::uint64_t seed);
/// Every participant's initial values.
Values initial_values(const Params& p, int np, std::uint64_t seed);

/// The seed of the graph comops runs: the validation seed varies the initial values only, so one
/// instance's graph serves every run of a point.
inline constexpr std::uint64_t kGraphSeed = 1;

/// Runs `iters` iterations of the update rule over `graph` serially from `start`: the reference.
Values run_serial(const std::vector<Part>& graph, std::size_t nodes, std::size_t degree,
                  Values start, std::size_t iters);
/// The final values of p.iters iterations over the graph of (p, np, graph_seed) from the
/// initial values of (p, np, value_seed): run_serial over make_graph and initial_values.
Values reference(const Params& p, int np, std::uint64_t graph_seed, std::uint64_t value_seed);

/// Counts the values of participant `owner` (E then H, `nodes` each) that differ from the
/// reference `want`: the number of wrong elements a backend reports.
std::size_t count_wrong(const Values& want, std::size_t nodes, int owner,
                        const std::vector<std::uint64_t>& e, const std::vector<std::uint64_t>& h);

/// What every backend's kernel (MpiKernel, ShmKernel, SwccKernel) derives from: its parameters
/// and its whole run, built on the kernel's own collective reset(e0, h0), iterate(iters) and
/// values(e, h).
template <class Kernel>
class KernelRun {
 public:
  /// Collective: one EM3D run, reset(e0, h0) then p.iters iterations, and this participant's
  /// final values into e, h (`nodes` each).
  void run(const std::uint64_t* e0, const std::uint64_t* h0, std::uint64_t* e, std::uint64_t* h) {
    Kernel& kernel = static_cast<Kernel&>(*this);
    kernel.reset(e0, h0);
    kernel.iterate(p_.iters);
    kernel.values(e, h);
  }

 protected:
  explicit KernelRun(const Params& p) : p_(p) {}
  Params p_;
};

}  // namespace comops::em3d
