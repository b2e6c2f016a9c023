// Which world ranks take part in a point and where each participant sits: node, node-local
// index among the point's participants, and the nodes the point spans.
#pragma once

#include <string>
#include <vector>

#include "comops/op.hpp"
#include "harness/runtime/nodes.hpp"

namespace comops {

/// How the participants of a point are chosen from the world ranks.
enum class PlacementPolicy {
  kPacked,  ///< fill node 0's ranks first, then node 1's, ...
  kSpread,  ///< round-robin over the nodes: node 0, node 1, ..., node 0, ...
};

/// Where ping-pong's second participant sits relative to the first (world rank 0).
enum class Pair {
  kNone,   ///< not a ping-pong point
  kIntra,  ///< on rank 0's node
  kInter,  ///< on another node (the lowest rank of node 1)
};

PlacementPolicy parse_placement(const std::string& name);  ///< throws UsageError
std::string placement_name(PlacementPolicy policy);
std::string pair_name(Pair pair);  ///< "", "intra", "inter"

/// The pairs --pair asks for: "intra", "inter", "both", or "auto" (both on several nodes,
/// intra on one). processes: a backend of MPI processes runs ping-pong (threads always form an
/// intra-node pair). Throws UsageError when a pair cannot be formed on these nodes.
std::vector<Pair> resolve_pairs(const std::string& name, const NodeMap& nodes, bool processes);

/// One point's participants.
struct Placement {
  Group group;                   ///< world rank of each participant (threads: 0 .. np-1)
  std::vector<int> node;         ///< node of each participant
  std::vector<int> local_index;  ///< index among this point's participants on the same node
  std::vector<int> local_count;  ///< this point's participants on that node
  int nodes = 1;                 ///< nodes the participants span (ping-pong: participants 0, 1)
  Pair pair = Pair::kNone;
  bool oversubscribed = false;  ///< more participants on some node than it has cores
};

/// Processes: np world ranks by policy (with `pair`, participant 1 is the pair's partner).
/// Throws UsageError when np exceeds the world or the pair cannot be formed.
Placement place_processes(const NodeMap& nodes, int np, PlacementPolicy policy, Pair pair);

/// Threads: np participants in world rank 0's process, on node 0.
Placement place_threads(const NodeMap& nodes, int np, Pair pair);

/// A single node of one rank with `cores` cores: for tests and single-process use.
NodeMap single_node_map(int cores, const std::string& host = "localhost");

}  // namespace comops
