// The mpi backend family: COMOPS on MPI processes with MPI point-to-point and collectives.
#pragma once

#include <memory>

#include "comops/op.hpp"

namespace comops {

/// The "mpi" family (one configured backend, labelled "mpi").
std::unique_ptr<BackendFamily> make_mpi_family();

}  // namespace comops
