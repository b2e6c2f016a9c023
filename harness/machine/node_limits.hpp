// Every node's topology and machine limits, measured by each node's lowest rank at the same
// time, and the network between the first two nodes.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "harness/machine/limits.hpp"
#include "harness/runtime/nodes.hpp"
#include "harness/runtime/world.hpp"

namespace comops {

/// What a node's lowest rank found on its node.
struct NodeFacts {
  nlohmann::json topology;  ///< Pinning::summary() there
  MachineLimits limits;     ///< empty unless measured
};

/// Collective over MPI_COMM_WORLD. Each node's lowest rank reads its topology and, with
/// `measure`, times its node's cache-line round trip, memcpy bandwidth and aggregate copy
/// bandwidth (aggregate_threads(pinning, max_np) cores at once) at `memcpy_sizes`, all nodes at
/// the same time, while the other ranks sleep. Gathered on world rank 0, indexed by node id
/// (other ranks get an empty vector).
std::vector<NodeFacts> survey_nodes(const World& world, const NodeMap& nodes,
                                    const Pinning& pinning,
                                    const std::vector<std::size_t>& memcpy_sizes, int max_np,
                                    bool measure);

/// Collective over MPI_COMM_WORLD. With two nodes or more, world rank 0 and node 1's lowest rank
/// time an 8-byte round trip and a 1 MiB one with plain MPI_Send/MPI_Recv (medians of 5
/// repetitions); the result on world rank 0, nothing elsewhere or on one node.
std::optional<NetworkLimits> measure_network(const World& world, const NodeMap& nodes,
                                             const Pinning& pinning);

}  // namespace comops
