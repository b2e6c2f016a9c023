// Helpers of the shm tests: the configured shm backends by scheme and point arguments.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "comops/op.hpp"

namespace comops::shm_test {

/// The shm backend labelled "shm-<scheme>" (created once, shared by the tests).
Backend& backend(const std::string& scheme);

/// Args of one point with count = bytes / 8.
Args make_args(OpKind op, int np, std::size_t bytes, int root = 0);

}  // namespace comops::shm_test
