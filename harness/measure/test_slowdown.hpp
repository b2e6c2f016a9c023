// Test-only slowdown (CMake option COMOPS_TEST_SLOWDOWN, OFF by default): a calibrated busy wait
// inside the timed calls of one point, so that the A/B job's power can be measured on a real
// slowdown (scripts/ab_job.sh, results/ab/). A default build compiles none of it.
#pragma once

#include <string>

#include "comops/op.hpp"

namespace comops {

/// `factory` as given; in a build with COMOPS_TEST_SLOWDOWN=ON, when the environment variable
/// COMOPS_TEST_SLOWDOWN=BACKEND:OP:BYTES:FRACTION (for example mpi:pingpong:8:0.05) names this
/// point (backend label, op name, size with K/M suffixes), a factory whose instances busy-wait
/// FRACTION of the time their calls took on every participant. Throws RuntimeError on a malformed
/// variable (test builds only).
OpFactory with_test_slowdown(OpFactory factory, const std::string& backend, const Args& args);

}  // namespace comops
