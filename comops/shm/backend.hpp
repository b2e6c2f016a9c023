// The shm backend families: OpenMP threads of one process exchanging data through shared memory,
// in two schemes (shm-staged: the paper's shared-buffer scheme; shm-direct: single copy); and the
// same schemes and op code on MPI processes of one node sharing MPI-3 windows (shmp-staged,
// shmp-direct).
#pragma once

#include <memory>

#include "comops/op.hpp"

namespace comops {

/// The "shm" family; its option --scheme=staged,direct picks the configured backends.
std::unique_ptr<BackendFamily> make_shm_family();

/// The "shmp" family; --shmp-scheme=staged,direct picks the configured backends, --shmp-window-max
/// caps a point's shared windows.
std::unique_ptr<BackendFamily> make_shmp_family();

}  // namespace comops
