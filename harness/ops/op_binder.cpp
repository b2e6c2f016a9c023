// Looking an op up in a backend's op table.
#include "harness/ops/op_binder.hpp"

#include <utility>

namespace comops {

OpFactory bind_op(const Backend& backend, OpKind kind) {
  for (OpEntry& entry : backend.ops())
    if (entry.kind == kind) return std::move(entry.make);
  return {};
}

}  // namespace comops
