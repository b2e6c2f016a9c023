// The mpi backend's op table; each op is one file, named in the op list of its CMakeLists.txt.
#pragma once

#include "comops/op.hpp"

namespace comops::mpi {

/// The ops the mpi backend implements: generated from the op list in comops/mpi/CMakeLists.txt.
OpTable op_table();

}  // namespace comops::mpi
