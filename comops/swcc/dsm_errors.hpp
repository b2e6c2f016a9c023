// The boundary between the DSM library's errors and comops's: swcc::ConfigError is a usage error
// (exit 2), every other swcc::Error (Timeout included) a run-time failure (exit 3), same text.
#pragma once

#include "comops/op.hpp"
#include "swcc/errors.hpp"

namespace comops::swcc {

/// Runs f(); rethrows the DSM library's errors as comops's (UsageError, RuntimeError).
template <class F>
void translate_dsm_errors(F&& f) {
  try {
    f();
  } catch (const ::swcc::ConfigError& e) {
    throw UsageError(e.what());
  } catch (const ::swcc::Error& e) {
    throw RuntimeError(e.what());
  }
}

}  // namespace comops::swcc
