// EM3D as a hand-written MPI program: each rank keeps its own nodes' values followed by ghost
// copies of the remote nodes it reads. The lists of who needs which values are built once (an
// MPI_Alltoall of counts and an MPI_Alltoallv of node indices); before each half-step every rank
// sends the values its peers read to exactly those peers (MPI_Isend/MPI_Irecv, one message per
// peer that needs any) and then updates its nodes from local memory.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <vector>

#include "comops/apps/em3d/graph.hpp"

namespace comops::em3d {

class MpiKernel : public KernelRun<MpiKernel> {
 public:
  /// Collective over `comm`: builds this rank's part of the graph of (p, graph_seed) and the
  /// exchange lists.
  MpiKernel(MPI_Comm comm, const Params& p, std::uint64_t graph_seed);

  /// This rank's nodes take the values e0, h0 (`nodes` each; local, no communication).
  void reset(const std::uint64_t* e0, const std::uint64_t* h0);
  /// Collective: `iters` iterations, each an exchange of H ghosts, the E half-step, an exchange
  /// of E ghosts and the H half-step.
  void iterate(std::size_t iters);
  /// This rank's current values into e, h (`nodes` each).
  void values(std::uint64_t* e, std::uint64_t* h) const;

  /// Ghost values this rank receives per half-step of kind `k`'s sources (E's: H values).
  std::size_t ghost_count(Kind k) const;
  /// Messages this rank sends per iteration (both half-steps).
  std::size_t messages_per_iteration() const;

 private:
  /// The ghosts of the source nodes of one kind of node: what this rank receives from each peer
  /// (into slots nodes.. of the source values) and which of its own source values it sends.
  struct Halo {
    std::vector<int> recv_peers, recv_counts, recv_displs;  ///< displs from the first ghost slot
    std::vector<int> send_peers, send_counts, send_displs;  ///< into send_index
    std::vector<std::uint32_t> send_index;                  ///< own nodes to send, peer by peer
    std::vector<std::uint64_t> send_buf;
    std::vector<MPI_Request> requests;
  };

  void build(const Side& side, Halo& halo, std::vector<Edge>& local_edges);
  void exchange(Halo& halo, std::vector<std::uint64_t>& source, int tag);
  void half_step(const std::vector<Edge>& edges, std::vector<std::uint64_t>& to,
                 const std::vector<std::uint64_t>& from);

  MPI_Comm comm_;
  int me_, np_;
  /// The edges of E (H) nodes with the source rewritten to a slot of h_ (e_): index < nodes is
  /// the own node, index >= nodes a ghost.
  std::vector<Edge> e_edges_, h_edges_;
  Halo h_halo_, e_halo_;  ///< ghosts of H values (read by E nodes), of E values (read by H nodes)
  std::vector<std::uint64_t> e_, h_;  ///< own values, then ghosts
};

}  // namespace comops::em3d
