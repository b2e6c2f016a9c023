// EM3D on shared memory (shm threads): each participant's node values in memory every thread of
// the team can read (shared arrays, or the participants' own buffers); each thread updates its
// own nodes in place, reading its neighbours' values straight from their owners' memory, with a
// team barrier after each half-step.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "comops/apps/em3d/graph.hpp"

namespace comops::em3d {

/// Where the values live: e[r] (h[r]) points to participant r's `nodes` E (H) values.
struct ShmParts {
  std::vector<std::uint64_t*> e, h;
};

class ShmKernel : public KernelRun<ShmKernel> {
 public:
  /// One thread's kernel: participant `self` of `np` (parts.e.size()), its part of the graph of
  /// (p, graph_seed), on the team's parts, with the team's barrier (called by every thread the
  /// same number of times).
  ShmKernel(const Params& p, std::uint64_t graph_seed, int self, ShmParts parts,
            std::function<void()> barrier);

  /// Collective: this thread's nodes take the values e0, h0 (`nodes` each; nothing is copied
  /// where they are its parts already), then a barrier.
  void reset(const std::uint64_t* e0, const std::uint64_t* h0);
  /// Collective: `iters` iterations, each an E and an H half-step ended by a barrier.
  void iterate(std::size_t iters);
  /// This thread's current values into e, h. Between barriers only.
  void values(std::uint64_t* e, std::uint64_t* h) const;

 private:
  void half_step(const Side& side, std::uint64_t* mine, const std::vector<std::uint64_t*>& from);

  int self_;
  Part part_;
  ShmParts parts_;
  std::function<void()> barrier_;
};

}  // namespace comops::em3d
