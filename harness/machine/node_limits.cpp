// Per-node limits in parallel (each node's lowest rank), gathered on rank 0, and the network row.
#include "harness/machine/node_limits.hpp"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "harness/util/stats.hpp"

namespace comops {
namespace {

constexpr int kTagLimits = 7101, kTagPing = 7102, kTagStop = 7103;
constexpr int kNetworkReps = 5;

// Rank 0's side: mean round trip over n iterations of `bytes` with the partner.
double round_trip_us(std::vector<char>& buf, std::size_t bytes, int n, int partner) {
  const int count = static_cast<int>(bytes);
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i) {
    MPI_Send(buf.data(), count, MPI_BYTE, partner, kTagPing, MPI_COMM_WORLD);
    MPI_Recv(buf.data(), count, MPI_BYTE, partner, kTagPing, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() /
         n;
}

// Median round trip: a short probe picks iterations for about `budget_us` a repetition.
double median_round_trip_us(std::vector<char>& buf, std::size_t bytes, int partner,
                            double budget_us, int max_iters) {
  const double probe = round_trip_us(buf, bytes, 10, partner);
  const int n = std::clamp(static_cast<int>(budget_us / std::max(probe, 1e-3)), 3, max_iters);
  std::vector<double> reps;
  for (int r = 0; r < kNetworkReps; ++r) reps.push_back(round_trip_us(buf, bytes, n, partner));
  return median(reps);
}

}  // namespace

std::vector<NodeFacts> survey_nodes(const World& world, const NodeMap& nodes,
                                    const Pinning& pinning,
                                    const std::vector<std::size_t>& memcpy_sizes, int max_np,
                                    bool measure) {
  const int rank = world.rank();
  const int node = nodes.node_of_rank.at(static_cast<std::size_t>(rank));
  const bool leader = nodes.ranks[static_cast<std::size_t>(node)].front() == rank;
  NodeFacts mine;
  if (leader) {
    mine.topology = pinning.summary();
    if (measure) {
      measure_cacheline(pinning, mine.limits);
      measure_memcpy(pinning, memcpy_sizes, mine.limits);
      measure_aggregate_memcpy(pinning, memcpy_sizes, aggregate_threads(pinning, max_np),
                               mine.limits);
    }
  }
  std::vector<NodeFacts> all;
  if (rank == 0) {
    all.resize(static_cast<std::size_t>(nodes.nodes()));
    all[0] = mine;
    for (int n = 1; n < nodes.nodes(); ++n) {
      MPI_Status st;
      MPI_Probe(nodes.ranks[static_cast<std::size_t>(n)].front(), kTagLimits, MPI_COMM_WORLD, &st);
      int len = 0;
      MPI_Get_count(&st, MPI_CHAR, &len);
      std::string text(static_cast<std::size_t>(len), '\0');
      MPI_Recv(text.data(), len, MPI_CHAR, st.MPI_SOURCE, kTagLimits, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      const auto j = nlohmann::json::parse(text);
      all[static_cast<std::size_t>(n)] = {j.at("topology"), limits_from_json(j.at("limits"))};
    }
  } else if (leader) {
    const std::string text =
        nlohmann::json{{"topology", mine.topology}, {"limits", to_json(mine.limits)}}.dump();
    MPI_Send(text.data(), static_cast<int>(text.size()), MPI_CHAR, 0, kTagLimits, MPI_COMM_WORLD);
  }
  world.quiet_barrier();
  return all;
}

std::optional<NetworkLimits> measure_network(const World& world, const NodeMap& nodes,
                                             const Pinning& pinning) {
  if (nodes.nodes() < 2) return std::nullopt;
  const int rank = world.rank();
  const int partner = nodes.ranks[1].front();
  std::optional<NetworkLimits> out;
  if (rank == 0 || rank == partner) {
    NetworkLimits net;
    std::vector<char> buf(net.bw_bytes, 1);
    pinning.bind_self(0, 1);
    if (rank == 0) {
      net.rank_b = partner;
      net.host_a = nodes.host[0];
      net.host_b = nodes.host[1];
      net.rtt_us = median_round_trip_us(buf, 8, partner, 20e3, 100000);
      const double big_us = median_round_trip_us(buf, net.bw_bytes, partner, 50e3, 1000);
      net.bw_GBps = 2.0 * static_cast<double>(net.bw_bytes) / big_us / 1e3;
      MPI_Send(nullptr, 0, MPI_BYTE, partner, kTagStop, MPI_COMM_WORLD);
      out = net;
    } else {
      for (;;) {  // echo every message until rank 0 says stop
        MPI_Status st;
        MPI_Recv(buf.data(), static_cast<int>(buf.size()), MPI_BYTE, 0, MPI_ANY_TAG, MPI_COMM_WORLD,
                 &st);
        if (st.MPI_TAG == kTagStop) break;
        int count = 0;
        MPI_Get_count(&st, MPI_BYTE, &count);
        MPI_Send(buf.data(), count, MPI_BYTE, 0, kTagPing, MPI_COMM_WORLD);
      }
    }
    pinning.unbind_self();
  }
  world.quiet_barrier();
  return out;
}

}  // namespace comops
