// The table of swcc latency-by-state cases (see swcc_state_cases.hpp). Message counts follow
// swcc/detail/protocol_home.cpp and protocol_cache.cpp; a home's requests to itself travel as
// messages to self, which Stats::messages does not count.
#include "bench/swcc_state_cases.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace swcc_state {

namespace {
constexpr Op R = Op::kRead;
constexpr Op W = Op::kWrite;

// A case whose blocks are `where`, found by rank 0 as `view` after `setup`; one timed read costs
// `read` protocol messages, one timed write `write`.
StateCase at(Where where, const char* name, const char* state, View view, std::vector<Step> setup,
             int read, int write) {
  return {name, state, where, view, std::move(setup), {read, write}};
}

// Both tables start with it: plain memory, for the cost of the access itself.
StateCase private_case() {
  return at(Where::kPrivate, "private", "plain memory of rank 0 (no DSM call)", View::kPlain, {}, 0,
            0);
}

// The cases at rank 0's own memory: private, then the home's states.
std::vector<StateCase> home_cases() {
  const Where h = Where::kHome;
  return {
      private_case(),
      at(h, "home_fast", "home, no entry in the home's row at all: the fast path", View::kEmptyRow,
         {}, 0, 0),
      // Rank 1's copy is invalidated by the home's write: the home entry stays, Modified by the
      // home. read/write: one probe finds it, no message.
      at(h, "home_entry", "home, with an entry, block Invalid elsewhere", View::kHomeOwned,
         {{kPartner, R}, {kTimer, W}}, 0, 0),
      // write: Inval to rank 1, InvalAck (WriteReq and WriteReply go to self).
      at(h, "home_shared", "home, block Shared at rank 1", View::kHomeShared, {{kPartner, R}}, 0,
         2),
      // read: Flush to rank 1, FlushData; write: FlushInval, FlushData.
      at(h, "home_modified", "home, block Modified at rank 1", View::kHomeModifiedAway,
         {{kPartner, W}}, 2, 2),
  };
}

// The cases at rank 1's memory: hits, misses, the upgrade and the first touch.
std::vector<StateCase> remote_cases() {
  const Where r = Where::kRemote;
  return {
      // read: a hit. write: WriteReq, Inval to rank 2, InvalAck, WriteReply.
      at(r, "remote_hit_shared", "remote, Shared here and at rank 2", View::kShared,
         {{kTimer, R}, {kThird, R}}, 0, 4),
      at(r, "remote_hit_modified", "remote, Modified here", View::kModified, {{kTimer, W}}, 0, 0),
      // ReadReq/ReadReply, WriteReq/WriteReply: the home holds the block exclusively.
      at(r, "remote_miss_clean", "remote, Invalid here, clean at the home (no other copy)",
         View::kInvalid, {{kTimer, R}, {kPartner, W}}, 2, 2),
      // read: ReadReq/ReadReply (a read needs no invalidation); write: WriteReq, Inval to rank
      // 2, InvalAck, WriteReply.
      at(r, "remote_miss_inval", "remote, Invalid here, Shared at rank 2", View::kInvalid,
         {{kTimer, R}, {kPartner, W}, {kThird, R}}, 2, 4),
      // read: ReadReq, Flush to rank 2, FlushData, ReadReply; write: the same with FlushInval.
      at(r, "remote_miss_flush", "remote, Invalid here, Modified at rank 2", View::kInvalid,
         {{kTimer, R}, {kThird, W}}, 4, 4),
      // read: a hit; write: WriteReq/WriteReply (the only sharer: nothing to invalidate).
      at(r, "upgrade", "remote, Shared here only (a write upgrades to Modified)", View::kShared,
         {{kTimer, R}}, 0, 2),
      // The requester and the home create their directory entries: 2 messages either way.
      at(r, "first_touch", "remote, never touched by any rank: entries are created", View::kNoEntry,
         {}, 2, 2),
  };
}

}  // namespace

const std::vector<StateCase>& swcc_cases() {
  static const std::vector<StateCase> cases = [] {
    std::vector<StateCase> all = home_cases();
    for (StateCase& c : remote_cases()) all.push_back(std::move(c));
    return all;
  }();
  return cases;
}

const std::vector<StateCase>& sc_cases() {
  static const std::vector<StateCase> cases = {
      private_case(),
      at(Where::kHome, "home", "sc, rank 0's own memory", View::kNoEntry, {}, 0, 0),
      // ScRead/ScReadReply, ScWrite/ScWriteAck.
      at(Where::kRemote, "remote", "sc, rank 1's memory", View::kNoEntry, {}, 2, 2),
  };
  return cases;
}

const char* op_name(Op op) { return op == Op::kRead ? "read" : "write"; }

int home_of(Where where) { return where == Where::kRemote ? kPartner : kTimer; }

swcc::Config state_config(std::size_t block_bytes, bool sc, std::size_t accesses) {
  swcc::Config cfg;
  cfg.block_bytes = sc ? 64 : block_bytes;
  cfg.uncached = sc;
  // One block per access, aligned to max(B, 64) by the allocator, plus slack for the batches'
  // alignment.
  const std::size_t per = std::max<std::size_t>(cfg.block_bytes, 64);
  cfg.segment_bytes = (accesses + 64) * per + (1 << 20);
  return cfg;
}

}  // namespace swcc_state
