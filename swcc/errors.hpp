// The DSM library's exceptions. A program on the DSM catches swcc::Error (or its kinds); comops's
// swcc backend translates them into its own error types at its boundary (comops/swcc/backend.cpp).
// ProtocolError (swcc/detail/protocol.hpp) is a logic error: a protocol cell that must never
// happen.
#pragma once

#include <stdexcept>

namespace swcc {

/// A run-time failure of the DSM: a segment that cannot be mapped or is exhausted, an
/// allocation that differs between ranks, more ranks than the directory can name.
struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A Config the library does not accept (a block size outside kBlockSizes).
struct ConfigError : Error {
  using Error::Error;
};

/// A pointer the library refuses (swcc/detail/bounds.hpp): a rank that does not exist, bytes
/// beyond the rank's segment, local()/local_read() of another rank's memory, or a single access
/// of hit_read/hit_write/the engine's misses that crosses a block. The text names the pointer as
/// (rank, offset), the bytes and the segment.
struct AccessError : Error {
  using Error::Error;
};

/// A lock used wrongly: a negative id, lock() of a lock this rank holds or waits for (locks are
/// not re-entrant), unlock() of a lock this rank does not hold.
struct LockError : Error {
  using Error::Error;
};

/// The watchdog: a request that made no progress within Config::watchdog_s (stretched by
/// load_factor()); the text carries the directory dump.
struct Timeout : Error {
  using Error::Error;
};

}  // namespace swcc
