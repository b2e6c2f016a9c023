// How a DSM is built (Config, FaultConfig and their limits) and what it counts (Stats): plain
// types of the API (swcc/swcc.hpp), in a header of their own because the engine behind the API
// keeps both by value.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

#include "swcc/block_sizes.hpp"

namespace swcc {

/// Fault injection (tests): each delivered message is held back with probability
/// `hold_probability` and released at a random later poll; reproducible from `seed`. It acts on
/// logical messages, after packets are unpacked.
struct FaultConfig {
  bool enabled = false;
  std::uint64_t seed = 1;
  double hold_probability = 0.3;
  double release_probability = 0.2;  ///< per held message per poll
};

/// How a DSM instance is built. All ranks must pass the same values.
struct Config {
  /// One of kBlockSizes.
  std::size_t block_bytes = kDefaultBlockBytes;
  bool uncached = false;  ///< sc mode: every remote access goes to the home
  /// This rank's global segment (rounded up to a whole block); an access beyond it throws
  /// AccessError.
  std::size_t segment_bytes = 16 << 20;
  FaultConfig fault;  ///< transport fault injection (tests)
  /// A request older than this throws with a dump: the limit on an idle machine, stretched by
  /// load_factor() (measured while waiting), so that a loaded or oversubscribed machine is not
  /// taken for a hang.
  double watchdog_s = 60;
  /// Called now and then by every wait (may be empty); it may throw to abandon the wait, for
  /// example when another participant has failed.
  std::function<void()> on_wait;
  /// Prefetch depth d (SCI-VM): a read miss to block k of an interleaved array also asks for
  /// its blocks k+1..k+d without waiting for them (Dsm<B>::read(array, i)). 0 turns it off; at
  /// most kMaxPrefetch. No effect in sc mode (nothing is cached).
  std::size_t prefetch = 0;
};

/// The largest Config::prefetch.
inline constexpr std::size_t kMaxPrefetch = 64;

/// Uncached (sc) mode: a bulk get, put or store travels in pieces of up to this many bytes, one
/// request each (Split-C's sc bulk messages), not block by block; sc bypasses the coherence
/// protocol, so a piece may span any number of blocks.
inline constexpr std::size_t kScBulkBytes = 8192;

/// Per-rank event counters, cumulative since construction.
struct Stats {
  std::int64_t hits = 0;           ///< accesses served locally (cache hit or home memory)
  std::int64_t misses = 0;         ///< accesses that needed a request
  std::int64_t messages = 0;       ///< messages sent to other ranks
  std::int64_t bytes = 0;          ///< bytes of those messages, headers included
  std::int64_t packets = 0;        ///< MPI messages that carried them (the transport packs)
  std::int64_t nacks = 0;          ///< NACKs received (by requesters and by homes)
  std::int64_t retries = 0;        ///< requests, invalidations and flushes sent again after a NACK
  std::int64_t invalidations = 0;  ///< copies this rank dropped on Inval/FlushInval
  std::int64_t prefetches = 0;     ///< read requests sent by prefetch (not counted as misses)
};

}  // namespace swcc
