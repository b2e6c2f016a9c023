// The mpi backend's op table (each op is one file, named in the op list of its CMakeLists.txt)
// and the op entries other backends reuse.
#pragma once

#include "comops/op.hpp"

namespace comops::mpi {

/// The ops the mpi backend implements: generated from COMOPS_OPS (cmake/comops_ops.cmake).
OpTable op_table();

/// The ping-pong entries (pingpong, pingpong-nb) on the participants' communicator (handle_of):
/// also the hybrid backend's, whose ping-pong is MPI point-to-point as here.
OpTable pingpong_ops();

}  // namespace comops::mpi
