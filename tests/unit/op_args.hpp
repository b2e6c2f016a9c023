// The unit tests' Args of one point: op, participants, element count, root and window.
#pragma once

#include <cstddef>

#include "comops/op.hpp"

namespace comops::test {

// window: messages per operation of a windowed op (stream-bw); the other ops ignore it.
inline Args make_args(OpKind op, int np, std::size_t count, int root = 0, int window = 3) {
  Args a;
  a.op = op;
  a.np = np;
  a.count = count;
  a.bytes = count * kElemBytes;
  a.root = root;
  a.window = window;
  return a;
}

}  // namespace comops::test
