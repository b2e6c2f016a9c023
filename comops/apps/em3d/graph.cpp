// EM3D's graph generator, initial values and serial reference (see graph.hpp).
#include "comops/apps/em3d/graph.hpp"

#include <fmt/format.h>

#include <limits>
#include <random>
#include <stdexcept>

namespace comops::em3d {
namespace {

// The random streams: std::seed_seq and std::mt19937_64 are specified exactly by the standard,
// so a stream is the same on every compiler; the purpose word keeps the streams apart.
enum Purpose : std::uint32_t { kEdges = 1, kValues = 2 };

std::mt19937_64 stream(std::uint64_t seed, Purpose what, Kind kind, int participant) {
  std::seed_seq seq{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32),
                    static_cast<std::uint32_t>(what), static_cast<std::uint32_t>(kind),
                    static_cast<std::uint32_t>(participant)};
  return std::mt19937_64(seq);
}

// A draw in 0..n-1 (n >= 1); the small bias of the remainder does not matter here, determinism
// does.
std::uint64_t below(std::mt19937_64& g, std::uint64_t n) { return g() % n; }

Side make_side(const Params& p, int np, std::uint64_t seed, int self, Kind kind) {
  std::mt19937_64 g = stream(seed, kEdges, kind, self);
  Side s;
  const std::uint64_t count = p.nodes * p.degree;
  s.edges.resize(count);
  for (std::uint64_t k = 0; k < count; ++k) {
    Edge& e = s.edges[k];
    e.owner = static_cast<std::uint32_t>(self);
    if (edge_is_remote(k, p.remote_pct))
      e.owner = static_cast<std::uint32_t>((self + 1 + below(g, np - 1)) % np);
    e.index = static_cast<std::uint32_t>(below(g, p.nodes));
    e.weight = 1 + below(g, kMaxWeight);
  }
  return s;
}

// One half-step: every node of `to` (all participants) from the current values of `from`.
void half_step(const std::vector<Part>& graph, Kind kind, std::size_t nodes, std::size_t degree,
               std::vector<std::uint64_t>& to, const std::vector<std::uint64_t>& from) {
  for (std::size_t owner = 0; owner < graph.size(); ++owner) {
    const Side& side = graph[owner].side(kind);
    for (std::size_t i = 0; i < nodes; ++i) {
      std::uint64_t& v = to[owner * nodes + i];
      v = update(v, &side.edges[i * degree], degree,
                 [&](const Edge& e) { return from[std::size_t{e.owner} * nodes + e.index]; });
    }
  }
}

}  // namespace

void check(const Params& p, int np) {
  if (np < 1) throw std::invalid_argument(fmt::format("em3d: {} participants", np));
  if (p.nodes == 0) throw std::invalid_argument("em3d: nodes per participant must be at least 1");
  if (p.degree == 0) throw std::invalid_argument("em3d: degree must be at least 1");
  if (p.remote_pct > 100)
    throw std::invalid_argument(
        fmt::format("em3d: remote-edge percentage {} is above 100", p.remote_pct));
  if (p.remote_pct > 0 && np < 2)
    throw std::invalid_argument("em3d: remote edges need at least 2 participants");
  const auto max32 = std::uint64_t{std::numeric_limits<std::uint32_t>::max()};
  if (p.nodes > max32 / static_cast<std::uint64_t>(np) || p.degree > max32 / p.nodes)
    throw std::invalid_argument(fmt::format(
        "em3d: {} nodes x {} participants x degree {} is too large", p.nodes, np, p.degree));
}

std::size_t Side::remote_count(int self) const {
  std::size_t n = 0;
  for (const Edge& e : edges) n += e.owner != static_cast<std::uint32_t>(self);
  return n;
}

Part make_part(const Params& p, int np, std::uint64_t seed, int self) {
  check(p, np);
  if (self < 0 || self >= np)
    throw std::invalid_argument(fmt::format("em3d: participant {} of {}", self, np));
  return {make_side(p, np, seed, self, Kind::kE), make_side(p, np, seed, self, Kind::kH)};
}

std::vector<std::uint64_t> initial_values(const Params& p, std::uint64_t seed, Kind kind,
                                          int owner) {
  std::mt19937_64 g = stream(seed, kValues, kind, owner);
  std::vector<std::uint64_t> v(p.nodes);
  for (std::uint64_t& x : v) x = below(g, kModulus);
  return v;
}

std::vector<Part> make_graph(const Params& p, int np, std::uint64_t seed) {
  std::vector<Part> g;
  g.reserve(np);
  for (int r = 0; r < np; ++r) g.push_back(make_part(p, np, seed, r));
  return g;
}

Values initial_values(const Params& p, int np, std::uint64_t seed) {
  Values v;
  for (int r = 0; r < np; ++r) {
    const auto e = initial_values(p, seed, Kind::kE, r), h = initial_values(p, seed, Kind::kH, r);
    v.e.insert(v.e.end(), e.begin(), e.end());
    v.h.insert(v.h.end(), h.begin(), h.end());
  }
  return v;
}

Values run_serial(const std::vector<Part>& graph, std::size_t nodes, std::size_t degree, Values v,
                  std::size_t iters) {
  for (std::size_t it = 0; it < iters; ++it) {
    half_step(graph, Kind::kE, nodes, degree, v.e, v.h);
    half_step(graph, Kind::kH, nodes, degree, v.h, v.e);
  }
  return v;
}

Values reference(const Params& p, int np, std::uint64_t graph_seed, std::uint64_t value_seed) {
  return run_serial(make_graph(p, np, graph_seed), p.nodes, p.degree,
                    initial_values(p, np, value_seed), p.iters);
}

std::size_t count_wrong(const Values& want, std::size_t nodes, int owner,
                        const std::vector<std::uint64_t>& e, const std::vector<std::uint64_t>& h) {
  std::size_t wrong = 0;
  const std::size_t base = static_cast<std::size_t>(owner) * nodes;
  for (std::size_t i = 0; i < nodes; ++i) {
    wrong += i >= e.size() || e[i] != want.e[base + i];
    wrong += i >= h.size() || h[i] != want.h[base + i];
  }
  return wrong;
}

}  // namespace comops::em3d
