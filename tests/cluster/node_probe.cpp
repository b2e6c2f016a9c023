// MPI probe for the simulated cluster: each rank's host and node, and ping-pong round trips.
//
// Prints one "rank R host H node_rank L node_size S nodes N" line per rank (rank 0 gathers them),
// then for each rank P > 0 "pingpong 0 P host H min_rtt_us X": the smallest 8-byte round trip of
// ITERS iterations (argv[1], default 200) between rank 0 and rank P.
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "harness/runtime/finalize.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int iters = argc > 1 ? std::atoi(argv[1]) : 200;

  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int node_rank = 0, node_size = 1;
  MPI_Comm_rank(node, &node_rank);
  MPI_Comm_size(node, &node_size);
  int leader = node_rank == 0 ? 1 : 0, nodes = 0;
  MPI_Allreduce(&leader, &nodes, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);

  char host[64] = {};
  gethostname(host, sizeof host - 1);
  std::vector<char> hosts(rank == 0 ? 64 * size : 0);
  std::vector<int> info(rank == 0 ? 2 * size : 0);
  const int mine[2] = {node_rank, node_size};
  MPI_Gather(host, 64, MPI_CHAR, hosts.data(), 64, MPI_CHAR, 0, MPI_COMM_WORLD);
  MPI_Gather(mine, 2, MPI_INT, info.data(), 2, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank == 0)
    for (int r = 0; r < size; ++r)
      std::printf("rank %d host %s node_rank %d node_size %d nodes %d\n", r, &hosts[64 * r],
                  info[2 * r], info[2 * r + 1], nodes);

  char buf[8] = {};
  for (int peer = 1; peer < size; ++peer) {
    MPI_Barrier(MPI_COMM_WORLD);
    double best = 1e30;
    for (int i = 0; i < iters; ++i) {
      if (rank == 0) {
        const double t0 = MPI_Wtime();
        MPI_Send(buf, 8, MPI_CHAR, peer, 0, MPI_COMM_WORLD);
        MPI_Recv(buf, 8, MPI_CHAR, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        best = std::min(best, MPI_Wtime() - t0);
      } else if (rank == peer) {
        MPI_Recv(buf, 8, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf, 8, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
      }
    }
    if (rank == 0)
      std::printf("pingpong 0 %d host %s min_rtt_us %.2f\n", peer, &hosts[64 * peer], best * 1e6);
  }
  std::fflush(stdout);
  MPI_Comm_free(&node);
  comops::finalize_mpi();  // MPI_Finalize can hang over UCX TCP (harness/runtime/finalize.cpp)
  return 0;
}
