// EM3D on the swcc DSM (swcc-N and swcc-sc): the node values live in global memory, two spread
// arrays (E and H, `nodes` values on every rank); each rank updates its own nodes, reading its
// neighbours' values through the DSM (cached in blocks, or one request each in sc mode), with a
// DSM barrier after each half-step. This is the Split-C program of the paper.
#pragma once

#include <cstdint>
#include <vector>

#include "comops/apps/em3d/graph.hpp"
#include "swcc/swcc.hpp"

namespace comops::em3d {

/// Global-memory bytes per rank that a SwccKernel needs: two arrays, each rounded up to 4096-byte
/// blocks, and 64 KiB beside them.
inline std::size_t swcc_segment_bytes(const Params& p) {
  return 2 * ((p.nodes * sizeof(std::uint64_t) + 4095) / 4096 * 4096) + (std::size_t{1} << 16);
}

template <std::size_t B>
class SwccKernel {
 public:
  /// Collective over the DSM's ranks: builds this rank's part of the graph of (p, seed) and
  /// allocates the two arrays. The DSM's segment needs swcc_segment_bytes(p).
  SwccKernel(::swcc::Dsm<B>& dsm, const Params& p, std::uint64_t seed)
      : d_(dsm),
        p_(p),
        me_(dsm.rank()),
        part_(make_part(p, dsm.size(), seed, me_)),
        start_e_(initial_values(p, seed, Kind::kE, me_)),
        start_h_(initial_values(p, seed, Kind::kH, me_)),
        e_(d_.template alloc<std::uint64_t>(p.nodes)),
        h_(d_.template alloc<std::uint64_t>(p.nodes)) {}

  /// Collective: every rank writes its nodes' initial values, then a DSM barrier.
  void reset() {
    d_.put(e_.on(me_), start_e_.data(), p_.nodes);
    d_.put(h_.on(me_), start_h_.data(), p_.nodes);
    d_.barrier();
  }

  /// Collective: `iters` iterations, each an E and an H half-step ended by a DSM barrier.
  void iterate(std::size_t iters) {
    for (std::size_t it = 0; it < iters; ++it) {
      half_step(part_.e, e_, h_);
      half_step(part_.h, h_, e_);
    }
  }

  /// Collective: reset() then p.iters iterations: one EM3D run.
  void run() {
    reset();
    iterate(p_.iters);
  }

  /// This rank's current values (E, H), read through the DSM. Between barriers only.
  std::vector<std::uint64_t> values(Kind k) {
    std::vector<std::uint64_t> v(p_.nodes);
    d_.read_bulk(v.data(), (k == Kind::kE ? e_ : h_).on(me_), p_.nodes);
    return v;
  }

 private:
  // The new values go to a private buffer first and then into global memory with one bulk put:
  // the invalidations of the copies other ranks read in the last half-step go out without
  // waiting for each other, and complete at the barrier (which syncs first).
  void half_step(const Side& side, ::swcc::SpreadArray<std::uint64_t> to,
                 ::swcc::SpreadArray<std::uint64_t> from) {
    const std::size_t degree = p_.degree;
    const ::swcc::global_ptr<std::uint64_t> mine = to.on(me_);
    for (std::size_t i = 0; i < p_.nodes; ++i)
      next_[i] = update(d_.read(mine + i), &side.edges[i * degree], degree,
                        [&](const Edge& e) { return d_.read(from.on(e.owner) + e.index); });
    d_.put(mine, next_.data(), p_.nodes);
    d_.barrier();
  }

  ::swcc::Dsm<B>& d_;
  Params p_;
  int me_;
  Part part_;
  std::vector<std::uint64_t> start_e_, start_h_;  ///< this rank's initial values
  ::swcc::SpreadArray<std::uint64_t> e_, h_;
  std::vector<std::uint64_t> next_ =
      std::vector<std::uint64_t>(p_.nodes);  ///< a half-step's results
};

}  // namespace comops::em3d
