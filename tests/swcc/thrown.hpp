// For the swcc tests that assert an exception's exact text.
#pragma once

#include <string>

namespace swcc {

/// The text of the E that f throws; a note when it throws nothing (another type fails the test).
template <class E, class F>
std::string thrown(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  return "(nothing thrown)";
}

}  // namespace swcc
