// The nodes an MPI run spans: which world rank runs on which node (shared-memory domain), each
// node's host name and the cores its ranks may use. Identical on every rank.
#pragma once

#include <string>
#include <vector>

#include "harness/runtime/pinning.hpp"

namespace comops {

/// Nodes are numbered by their lowest world rank: node 0 holds world rank 0.
struct NodeMap {
  std::vector<int> node_of_rank;        ///< world rank -> node id
  std::vector<int> pid_of_rank;         ///< world rank -> process id on its node
  std::vector<std::vector<int>> ranks;  ///< node id -> its world ranks, ascending
  std::vector<std::string> host;        ///< node id -> host name
  std::vector<int> cores;               ///< node id -> cores its ranks may use together

  int nodes() const { return static_cast<int>(ranks.size()); }
  int world_size() const { return static_cast<int>(node_of_rank.size()); }
  /// The node's index of world rank r among its node's ranks (0 .. ranks on the node - 1).
  int local_rank(int r) const;
  const std::string& host_of_rank(int r) const;
};

/// Builds the map from per-rank facts: any node label per rank (ranks with equal labels share a
/// node), the host name, process id and node core count each rank saw. Pure; throws
/// RuntimeError when the vectors disagree in length or are empty.
NodeMap make_node_map(const std::vector<int>& label_of_rank, const std::vector<std::string>& hosts,
                      const std::vector<int>& pids, const std::vector<int>& node_cores);

/// Collective over MPI_COMM_WORLD: nodes from MPI_Comm_split_type(MPI_COMM_TYPE_SHARED), host
/// names, and each node's cores: the union of what its ranks may run on (a launcher's or batch
/// system's binding respected), counted on that node's own topology.
NodeMap discover_nodes(const Pinning& pinning);

}  // namespace comops
