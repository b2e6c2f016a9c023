// Binding an op to a backend: the one place that looks an op up in a backend's op table.
#pragma once

#include "comops/op.hpp"

namespace comops {

/// The factory of kind in backend's op table (Backend::ops), or an empty function when the
/// backend does not implement it.
OpFactory bind_op(const Backend& backend, OpKind kind);

}  // namespace comops
