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

// The cases at rank 0's own memory: private, then the home's states.
std::vector<StateCase> home_cases() {
  return {
      {.name = "private",
       .state = "plain memory of rank 0 (no DSM call)",
       .where = Where::kPrivate,
       .view = View::kPlain,
       .setup = {},
       .messages = {0, 0}},
      {.name = "home_fast",
       .state = "home, no entry in the home's row at all: the fast path",
       .where = Where::kHome,
       .view = View::kEmptyRow,
       .setup = {},
       .messages = {0, 0}},
      // Rank 1's copy is invalidated by the home's write: the home entry stays, Modified by the
      // home. read/write: one probe finds it, no message.
      {.name = "home_entry",
       .state = "home, with an entry, block Invalid elsewhere",
       .where = Where::kHome,
       .view = View::kHomeOwned,
       .setup = {{kPartner, R}, {kTimer, W}},
       .messages = {0, 0}},
      // write: Inval to rank 1, InvalAck (WriteReq and WriteReply go to self).
      {.name = "home_shared",
       .state = "home, block Shared at rank 1",
       .where = Where::kHome,
       .view = View::kHomeShared,
       .setup = {{kPartner, R}},
       .messages = {0, 2}},
      // read: Flush to rank 1, FlushData; write: FlushInval, FlushData.
      {.name = "home_modified",
       .state = "home, block Modified at rank 1",
       .where = Where::kHome,
       .view = View::kHomeModifiedAway,
       .setup = {{kPartner, W}},
       .messages = {2, 2}},
  };
}

// The cases at rank 1's memory: hits, misses, the upgrade and the first touch.
std::vector<StateCase> remote_cases() {
  return {
      // read: a hit. write: WriteReq, Inval to rank 2, InvalAck, WriteReply.
      {.name = "remote_hit_shared",
       .state = "remote, Shared here and at rank 2",
       .where = Where::kRemote,
       .view = View::kShared,
       .setup = {{kTimer, R}, {kThird, R}},
       .messages = {0, 4}},
      {.name = "remote_hit_modified",
       .state = "remote, Modified here",
       .where = Where::kRemote,
       .view = View::kModified,
       .setup = {{kTimer, W}},
       .messages = {0, 0}},
      // ReadReq/ReadReply, WriteReq/WriteReply: the home holds the block exclusively.
      {.name = "remote_miss_clean",
       .state = "remote, Invalid here, clean at the home (no other copy)",
       .where = Where::kRemote,
       .view = View::kInvalid,
       .setup = {{kTimer, R}, {kPartner, W}},
       .messages = {2, 2}},
      // read: ReadReq/ReadReply (a read needs no invalidation); write: WriteReq, Inval to rank
      // 2, InvalAck, WriteReply.
      {.name = "remote_miss_inval",
       .state = "remote, Invalid here, Shared at rank 2",
       .where = Where::kRemote,
       .view = View::kInvalid,
       .setup = {{kTimer, R}, {kPartner, W}, {kThird, R}},
       .messages = {2, 4}},
      // read: ReadReq, Flush to rank 2, FlushData, ReadReply; write: the same with FlushInval.
      {.name = "remote_miss_flush",
       .state = "remote, Invalid here, Modified at rank 2",
       .where = Where::kRemote,
       .view = View::kInvalid,
       .setup = {{kTimer, R}, {kThird, W}},
       .messages = {4, 4}},
      // read: a hit; write: WriteReq/WriteReply (the only sharer: nothing to invalidate).
      {.name = "upgrade",
       .state = "remote, Shared here only (a write upgrades to Modified)",
       .where = Where::kRemote,
       .view = View::kShared,
       .setup = {{kTimer, R}},
       .messages = {0, 2}},
      // The requester and the home create their directory entries: 2 messages either way.
      {.name = "first_touch",
       .state = "remote, never touched by any rank: entries are created",
       .where = Where::kRemote,
       .view = View::kNoEntry,
       .setup = {},
       .messages = {2, 2}},
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
      {.name = "private",
       .state = "plain memory of rank 0 (no DSM call)",
       .where = Where::kPrivate,
       .view = View::kPlain,
       .setup = {},
       .messages = {0, 0}},
      {.name = "home",
       .state = "sc, rank 0's own memory",
       .where = Where::kHome,
       .view = View::kNoEntry,
       .setup = {},
       .messages = {0, 0}},
      // ScRead/ScReadReply, ScWrite/ScWriteAck.
      {.name = "remote",
       .state = "sc, rank 1's memory",
       .where = Where::kRemote,
       .view = View::kNoEntry,
       .setup = {},
       .messages = {2, 2}},
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
