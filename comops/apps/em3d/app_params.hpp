// EM3D as comops runs it (--app=em3d): its parameters at one point of the sweep (Args::app) and
// the layout of a participant's buffers: send = its E nodes' initial values, then its H nodes'
// (nodes each); receive = their final values in the same order.
#pragma once

#include <cstdint>

#include "comops/apps/em3d/graph.hpp"
#include "comops/op.hpp"

namespace comops::em3d {

/// The point's EM3D parameters (--em3d-nodes, --em3d-degree, --em3d-remote, --em3d-iters).
inline Params params_of(const Args& a) {
  return {.nodes = static_cast<std::size_t>(a.param("nodes")),
          .degree = static_cast<std::size_t>(a.param("degree")),
          .remote_pct = static_cast<unsigned>(a.param("remote")),
          .iters = static_cast<std::size_t>(a.param("iters"))};
}

/// --em3d-split: how swcc reads a half-step's remote values: 0 = with blocking reads as the
/// update needs them (the paper's program), 1 = with split-phase gets first, 2 = through one
/// read view per block first.
inline std::int64_t split_of(const Args& a) { return a.param("split"); }

/// The buffers' elements as EM3D values (values are below 2^31, so an Elem holds one exactly).
inline const std::uint64_t* values_in(const Elem* p) {
  return reinterpret_cast<const std::uint64_t*>(p);
}
inline std::uint64_t* values_in(Elem* p) { return reinterpret_cast<std::uint64_t*>(p); }

}  // namespace comops::em3d
