// The shm backend family: OpenMP threads of one process exchanging data through shared memory,
// in two schemes (shm-staged: the paper's shared-buffer scheme; shm-direct: single copy).
#pragma once

#include <memory>

#include "comops/op.hpp"

namespace comops {

/// The "shm" family; its option --scheme=staged,direct picks the configured backends.
std::unique_ptr<BackendFamily> make_shm_family();

}  // namespace comops
