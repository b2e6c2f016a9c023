// The hybrid backend family: MPI processes that may span nodes, shared memory (MPI-3 windows)
// inside each node and MPI between one leader per node.
#pragma once

#include <memory>

#include "comops/op.hpp"

namespace comops {

/// The "hybrid" family (one configured backend, labelled "hybrid"); --hybrid-node-size and
/// --hybrid-window-max are its options.
std::unique_ptr<BackendFamily> make_hybrid_family();

}  // namespace comops
