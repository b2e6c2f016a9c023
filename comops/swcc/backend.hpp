// The swcc backend family: COMOPS on MPI processes through the software DSM (swcc-<block>,
// swcc-sc).
#pragma once

#include <memory>

#include "comops/op.hpp"

namespace comops {

/// The "swcc" family: one configured backend per --block-size value ("swcc-64"), plus "swcc-sc"
/// with --uncached.
std::unique_ptr<BackendFamily> make_swcc_family();

}  // namespace comops
