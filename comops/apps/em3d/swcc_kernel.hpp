// EM3D on the swcc DSM (swcc-N and swcc-sc): the node values live in global memory, two spread
// arrays (E and H, `nodes` values on every rank); each rank updates its own nodes, reading its
// neighbours' values through the DSM (cached in blocks, or one request each in sc mode), with a
// DSM barrier after each half-step. Its own nodes' values (the old value of a node it updates and
// its local sources) it reads through local pointers, as a Split-C program reads its own part of
// a spread array (Dsm::local_read: valid until the barrier, since no rank writes them before).
// Reads::kBlocking is the Split-C program of the paper; Reads::kSplitPhase fetches the remote
// values of a half-step with split-phase gets first; Reads::kViews reads them through one read
// view per block they lie in (Dsm::read_view: one coherence check per block, then plain loads).
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <utility>
#include <vector>

#include "comops/apps/em3d/graph.hpp"
#include "swcc/swcc.hpp"

namespace comops::em3d {

/// Global-memory bytes per rank that a SwccKernel needs: two arrays, each rounded up to 4096-byte
/// blocks, and 64 KiB beside them.
inline std::size_t swcc_segment_bytes(const Params& p) {
  return 2 * ((p.nodes * sizeof(std::uint64_t) + 4095) / 4096 * 4096) + (std::size_t{1} << 16);
}

/// How the DSM program reads the values of its nodes' sources.
enum class Reads {
  /// A blocking DSM read per remote edge, when the update needs it (the paper's program): a
  /// remote value costs a round trip in sc mode, a miss per block when cached, repeats being
  /// hits. Local sources are read through a local pointer (Dsm::local_read).
  kBlocking,
  /// Before each half-step, one split-phase get per distinct remote source into a private
  /// array, then one sync (Split-C's `:=` and sync()): the requests go out without waiting for
  /// each other. Local sources are read as in kBlocking.
  kSplitPhase,
  /// Before each half-step, the distinct remote sources in (owner, index) order, each block of
  /// them through one read view (Dsm::read_view: one check or miss for the block, then plain
  /// loads of the sources in it) into a private array. Local sources are read as in kBlocking.
  kViews,
};

template <std::size_t B>
class SwccKernel : public KernelRun<SwccKernel<B>> {
 public:
  /// Collective over the DSM's ranks: builds this rank's part of the graph of (p, graph_seed)
  /// and allocates the two arrays. The DSM's segment needs swcc_segment_bytes(p).
  SwccKernel(::swcc::Dsm<B>& dsm, const Params& p, std::uint64_t graph_seed,
             Reads reads = Reads::kBlocking)
      : KernelRun<SwccKernel<B>>(p),
        d_(dsm),
        me_(dsm.rank()),
        reads_(reads),
        part_(make_part(p, dsm.size(), graph_seed, me_)),
        e_(d_.template alloc<std::uint64_t>(p.nodes)),
        h_(d_.template alloc<std::uint64_t>(p.nodes)),
        e_ghosts_(ghosts_of(part_.e)),
        h_ghosts_(ghosts_of(part_.h)) {}

  /// Collective: every rank writes its nodes' values (`nodes` E values e0, H values h0) into
  /// global memory, then a DSM barrier.
  void reset(const std::uint64_t* e0, const std::uint64_t* h0) {
    d_.put(e_.on(me_), e0, p_.nodes);
    d_.put(h_.on(me_), h0, p_.nodes);
    d_.barrier();
  }

  /// Collective: `iters` iterations, each an E and an H half-step ended by a DSM barrier.
  void iterate(std::size_t iters) {
    for (std::size_t it = 0; it < iters; ++it) {
      half_step(part_.e, e_ghosts_, e_, h_);
      half_step(part_.h, h_ghosts_, h_, e_);
    }
  }

  /// This rank's current values into e, h (`nodes` each), read through the DSM (its own memory,
  /// so no message). Between barriers only.
  void values(std::uint64_t* e, std::uint64_t* h) {
    d_.read_bulk(e, e_.on(me_), p_.nodes);
    d_.read_bulk(h, h_.on(me_), p_.nodes);
  }

 private:
  using KernelRun<SwccKernel<B>>::p_;  // the base is a dependent type: name its member

  /// The remote sources of one kind of node for Reads::kSplitPhase: each distinct one once, and
  /// the edges with a remote source rewritten to (kGhost, its slot in `values`).
  struct Ghosts {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> sources;  ///< (owner, index)
    std::vector<Edge> edges;
    std::vector<std::uint64_t> values;
  };
  static constexpr std::uint32_t kGhost = std::numeric_limits<std::uint32_t>::max();

  // The remote sources of `side` in (owner, index) order, so that the sources of one block are
  // neighbours (Reads::kViews reads each block once), and its edges rewritten to their slots.
  Ghosts ghosts_of(const Side& side) const {
    Ghosts g;
    if (reads_ == Reads::kBlocking) return g;
    const auto me = static_cast<std::uint32_t>(me_);
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> slot;
    for (const Edge& e : side.edges)
      if (e.owner != me) slot.emplace(std::pair{e.owner, e.index}, 0);
    for (auto& [source, k] : slot) {
      k = static_cast<std::uint32_t>(g.sources.size());
      g.sources.push_back(source);
    }
    g.edges = side.edges;
    for (Edge& e : g.edges)
      if (e.owner != me) e = Edge{kGhost, slot.at({e.owner, e.index}), e.weight};
    g.values.resize(g.sources.size());
    return g;
  }

  // Reads::kSplitPhase: Dsm::get of one element would flush the transport per call (a packet
  // per request); its two halves, called here for every source and then one flush, let the
  // transport pack the half-step's requests to each home into few packets.
  void fetch_split_phase(Ghosts& g, ::swcc::SpreadArray<std::uint64_t> from) {
    for (std::size_t k = 0; k < g.sources.size(); ++k) {
      const int home = static_cast<int>(g.sources[k].first);
      const std::uint64_t off = (from.on(home) + g.sources[k].second).offset;
      if (!d_.hit_read(home, off, &g.values[k], sizeof(std::uint64_t)))
        d_.engine().get_miss(home, off, &g.values[k], sizeof(std::uint64_t));
    }
    d_.engine().flush();
    d_.sync();
  }

  // Reads::kViews: a read view from each block's first source to the block's end serves every
  // source after it in that block. One view at a time: a view that misses may end the others.
  void fetch_through_views(Ghosts& g, ::swcc::SpreadArray<std::uint64_t> from) {
    for (std::size_t k = 0; k < g.sources.size();) {
      const auto [owner, first] = g.sources[k];
      const ::swcc::ReadView<std::uint64_t> v =
          d_.read_view(from.on(static_cast<int>(owner)) + first, p_.nodes - first);
      for (; k < g.sources.size() && g.sources[k].first == owner &&
             g.sources[k].second - first < v.size();
           ++k)
        g.values[k] = v[g.sources[k].second - first];
    }
  }

  // The new values go to a private buffer first and then into global memory with one blocking
  // bulk write (Dsm::write_bulk): the invalidations of the copies other ranks read in the last
  // half-step go out without waiting for each other, and the values are read in place.
  void half_step(const Side& side, Ghosts& g, ::swcc::SpreadArray<std::uint64_t> to,
                 ::swcc::SpreadArray<std::uint64_t> from) {
    const std::size_t degree = p_.degree;
    const ::swcc::global_ptr<std::uint64_t> mine = to.on(me_);
    if (reads_ != Reads::kBlocking) {
      if (reads_ == Reads::kSplitPhase)
        fetch_split_phase(g, from);
      else
        fetch_through_views(g, from);
      const std::uint64_t* old = d_.local_read(mine, p_.nodes);
      const std::uint64_t* local = d_.local_read(from.on(me_), p_.nodes);
      for (std::size_t i = 0; i < p_.nodes; ++i)
        next_[i] = update(old[i], &g.edges[i * degree], degree, [&](const Edge& e) {
          return e.owner == kGhost ? g.values[e.index] : local[e.index];
        });
    } else {
      const std::uint64_t* old = d_.local_read(mine, p_.nodes);
      const std::uint64_t* local = d_.local_read(from.on(me_), p_.nodes);
      const auto me = static_cast<std::uint32_t>(me_);
      for (std::size_t i = 0; i < p_.nodes; ++i)
        next_[i] = update(old[i], &side.edges[i * degree], degree, [&](const Edge& e) {
          return e.owner == me ? local[e.index] : d_.read(from.on(e.owner) + e.index);
        });
    }
    d_.write_bulk(mine, next_.data(), p_.nodes);
    d_.barrier();
  }

  ::swcc::Dsm<B>& d_;
  int me_;
  Reads reads_;
  Part part_;
  ::swcc::SpreadArray<std::uint64_t> e_, h_;
  Ghosts e_ghosts_, h_ghosts_;  ///< sources of E nodes (H values), of H nodes (E values)
  std::vector<std::uint64_t> next_ =
      std::vector<std::uint64_t>(p_.nodes);  ///< a half-step's results
};

}  // namespace comops::em3d
