// The descriptors of the applications (--app): one file each, harness/ops/<app>_descriptor.cpp,
// appended to the table of harness/ops/op_descriptors.cpp (see "Adding an application" in
// docs/contributing.md).
#pragma once

#include "harness/ops/op_descriptors.hpp"

namespace comops {

/// matmul: C = A x B, n x n int64, rows spread over the participants, B read by all of them.
OpDescriptor matmul_descriptor();

/// em3d: the Split-C EM3D benchmark, E and H nodes per participant, remote edges by percent.
OpDescriptor em3d_descriptor();

}  // namespace comops
