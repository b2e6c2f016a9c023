// The unit tests' Args of one point: op, participants, element count and root.
#pragma once

#include <cstddef>

#include "comops/op.hpp"

namespace comops::test {

inline Args make_args(OpKind op, int np, std::size_t count, int root = 0) {
  Args a;
  a.op = op;
  a.np = np;
  a.count = count;
  a.bytes = count * kElemBytes;
  a.root = root;
  return a;
}

}  // namespace comops::test
