// Choosing a point's participants from the node map, and the per-participant facts binding and
// the oversubscription flag need.
#include "harness/runtime/placement.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace comops {
namespace {

// Fills node, local index and count, span and oversubscription from the participants' nodes.
Placement describe(const NodeMap& nodes, Group group, std::vector<int> node_of, Pair pair) {
  Placement p;
  p.group = std::move(group);
  p.node = std::move(node_of);
  p.pair = pair;
  std::vector<int> seen(static_cast<std::size_t>(nodes.nodes()), 0);
  for (int n : p.node) p.local_index.push_back(seen[static_cast<std::size_t>(n)]++);
  for (int n : p.node) p.local_count.push_back(seen[static_cast<std::size_t>(n)]);
  // Ping-pong and the one-sided ops involve participants 0 and 1 only: the span is the pair's.
  const auto spanned = pair != Pair::kNone && p.node.size() > 2 ? p.node.begin() + 2 : p.node.end();
  p.nodes = static_cast<int>(std::set<int>(p.node.begin(), spanned).size());
  for (std::size_t n = 0; n < seen.size(); ++n)
    if (seen[n] > nodes.cores[n]) p.oversubscribed = true;
  return p;
}

// World ranks in the policy's order; the first is always world rank 0.
std::vector<int> order_of(const NodeMap& nodes, PlacementPolicy policy) {
  std::vector<int> order;
  if (policy == PlacementPolicy::kPacked) {
    for (const auto& ranks : nodes.ranks) order.insert(order.end(), ranks.begin(), ranks.end());
    return order;
  }
  for (std::size_t i = 0; order.size() < static_cast<std::size_t>(nodes.world_size()); ++i)
    for (const auto& ranks : nodes.ranks)
      if (i < ranks.size()) order.push_back(ranks[i]);
  return order;
}

int partner(const NodeMap& nodes, Pair pair) {
  if (pair == Pair::kInter) {
    if (nodes.nodes() < 2)
      throw UsageError(fmt::format(
          "--pair=inter needs ranks on two nodes, but all {} rank(s) run on one node ({})",
          nodes.world_size(), nodes.host[0]));
    return nodes.ranks[1][0];
  }
  if (nodes.ranks[0].size() < 2)
    throw UsageError(fmt::format(
        "--pair=intra needs two ranks on rank 0's node ({}), which runs only one (give the "
        "launcher at least 2 ranks per node)",
        nodes.host[0]));
  return nodes.ranks[0][1];
}

}  // namespace

PlacementPolicy parse_placement(const std::string& name) {
  if (name == "packed") return PlacementPolicy::kPacked;
  if (name == "spread") return PlacementPolicy::kSpread;
  throw UsageError(fmt::format("unknown --placement '{}' (expected packed or spread)", name));
}

std::string placement_name(PlacementPolicy policy) {
  return policy == PlacementPolicy::kPacked ? "packed" : "spread";
}

std::string pair_name(Pair pair) {
  switch (pair) {
    case Pair::kIntra:
      return "intra";
    case Pair::kInter:
      return "inter";
    case Pair::kNone:
      break;
  }
  return "";
}

std::vector<Pair> resolve_pairs(const std::string& name, const NodeMap& nodes, bool processes) {
  std::vector<Pair> pairs;
  if (name == "intra")
    pairs = {Pair::kIntra};
  else if (name == "inter")
    pairs = {Pair::kInter};
  else if (name == "both")
    pairs = {Pair::kIntra, Pair::kInter};
  else if (name == "auto")
    pairs = nodes.nodes() > 1 ? std::vector<Pair>{Pair::kIntra, Pair::kInter}
                              : std::vector<Pair>{Pair::kIntra};
  else
    throw UsageError(
        fmt::format("unknown --pair '{}' (expected intra, inter, both or auto)", name));
  if (!processes) {
    if (name == "inter")
      throw UsageError(
          "--pair=inter needs a backend of MPI processes (mpi, swcc): shm's threads share one "
          "node");
    return {Pair::kIntra};
  }
  if (name == "auto" && nodes.nodes() > 1 && nodes.ranks[0].size() < 2)
    pairs = {Pair::kInter};  // no second rank on node 0: only the pair that can be formed
  for (Pair p : pairs) partner(nodes, p);  // throws when it cannot be formed
  return pairs;
}

Placement place_processes(const NodeMap& nodes, int np, PlacementPolicy policy, Pair pair) {
  if (np < 1 || np > nodes.world_size())
    throw UsageError(
        fmt::format("np={} needs {} MPI processes, the run has {}", np, np, nodes.world_size()));
  std::vector<int> order = order_of(nodes, policy);
  if (pair != Pair::kNone && np >= 2) {
    const int second = partner(nodes, pair);
    order.erase(std::find(order.begin(), order.end(), second));
    order.insert(order.begin() + 1, second);
  }
  order.resize(static_cast<std::size_t>(np));
  std::vector<int> node_of;
  for (int r : order) node_of.push_back(nodes.node_of_rank[static_cast<std::size_t>(r)]);
  return describe(nodes, Group{order}, std::move(node_of), pair);
}

Placement place_threads(const NodeMap& nodes, int np, Pair pair) {
  return describe(nodes, Group::first(np), std::vector<int>(static_cast<std::size_t>(np), 0), pair);
}

NodeMap single_node_map(int cores, const std::string& host) {
  return make_node_map({0}, {host}, {0}, {cores});
}

}  // namespace comops
