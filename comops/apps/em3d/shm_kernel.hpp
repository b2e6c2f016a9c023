// EM3D on shared memory (shm threads): the values of every participant's nodes in two shared
// arrays; each thread updates its own nodes, reading its neighbours' values straight from the
// arrays, with a team barrier after each half-step.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "comops/apps/em3d/graph.hpp"

namespace comops::em3d {

/// The arrays the team shares: participant r's node i at [r * nodes + i].
struct ShmValues {
  ShmValues(const Params& p, int np)
      : e(p.nodes * static_cast<std::size_t>(np)), h(p.nodes * static_cast<std::size_t>(np)) {}
  std::vector<std::uint64_t> e, h;
};

class ShmKernel {
 public:
  /// One thread's kernel: participant `self` of `np`, on the team's shared arrays, with the
  /// team's barrier (called by every thread the same number of times).
  ShmKernel(ShmValues& shared, const Params& p, std::uint64_t seed, int self, int np,
            std::function<void()> barrier);

  /// Collective: this thread's nodes back to their initial values, then a barrier.
  void reset();
  /// Collective: `iters` iterations, each an E and an H half-step ended by a barrier.
  void iterate(std::size_t iters);
  /// Collective: reset() then p.iters iterations: one EM3D run.
  void run() {
    reset();
    iterate(p_.iters);
  }
  /// This thread's current values of one kind (`nodes` values). Between barriers only.
  std::vector<std::uint64_t> values(Kind k) const;

 private:
  void half_step(const Side& side, std::vector<std::uint64_t>& to,
                 const std::vector<std::uint64_t>& from);

  ShmValues& shared_;
  Params p_;
  int self_;
  Part part_;
  std::vector<std::uint64_t> start_e_, start_h_;
  std::function<void()> barrier_;
};

}  // namespace comops::em3d
