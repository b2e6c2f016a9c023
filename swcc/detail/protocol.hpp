// The MSI coherence protocol of one block as pure data-in/data-out transition functions (no MPI):
// the home side (directory at the block's home) and the cache side (a non-home node's copy).
// The Murphi model swcc/model/swcc.m follows these tables; when one changes, the other
// does. Its header lists the correspondence: home_transition() <-> the directory cases of the
// home branch (m.dst = 0) of rule "Deliver" plus procedure Finish, with HomeEvent::write_locked
// <-> function HomeWriteLocked; cache_transition() <-> the cache branch of "Deliver";
// cache_access() <-> rules "IssueRead", "IssueWrite", "WriteHit"; home_access() <-> function
// HomeHit and rules "HomeIssueRead", "HomeIssueWrite", "HomeIssueStore", "HomeWriteHit".
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "swcc/detail/sharer_set.hpp"

namespace swcc {

/// State of a block in a directory entry. Non-home entries use Invalid, Shared and Modified; home
/// entries use Shared (home copy valid, `sharers` hold read copies), Modified (`owner` holds the
/// only valid copy; owner == home means the home holds it exclusively, like having no entry) and
/// the two busy states while a request waits for invalidation acks or a flush.
enum class State : std::uint8_t { kInvalid, kShared, kModified, kBusyRead, kBusyWrite };

/// Protocol and runtime messages. Requests go to the home; replies come back from it.
enum class MsgType : std::uint8_t {
  kReadReq,     ///< requester wants a read copy
  kWriteReq,    ///< requester wants the block modified (upgrade when it holds Shared)
  kStoreReq,    ///< requester asks the home to write the payload; the home ends up owning it
  kReadReply,   ///< home -> requester: data, become Shared
  kWriteReply,  ///< home -> requester: data, become Modified
  kStoreAck,    ///< home -> requester: the store is done
  kNack,        ///< home -> requester: busy or senseless request, retry
  kInval,       ///< home -> sharer: drop your Shared copy
  kFlush,       ///< home -> owner: send the data back, keep a Shared copy
  kFlushInval,  ///< home -> owner: send the data back, become Invalid
  kInvalAck,    ///< sharer -> home
  kFlushData,   ///< owner -> home: data of a flush
  kRemoteNack,  ///< sharer/owner -> home: Inval/Flush arrived before the grant (non-FIFO), retry
  kScRead,      ///< uncached mode: read bytes at the home
  kScReadReply,
  kScWrite,  ///< uncached mode: write bytes at the home
  kScWriteAck,
  kLockReq,  ///< lock protocol: acquire at the lock's home
  kLockGrant,
  kUnlock,
  kUnlockAck,  ///< lock home -> releaser: the release is recorded (sync() waits for it)
  kCount
};

const char* state_name(State s);
const char* msg_name(MsgType t);

/// A (state, event) cell that the protocol rules out; thrown loudly, never ignored.
struct ProtocolError : std::logic_error {
  using std::logic_error::logic_error;
};

/// One message the transition asks the runtime to send.
struct Send {
  MsgType type;
  int to;                  ///< destination rank
  bool with_data = false;  ///< carries the block's data (from the home's memory or the cache)
  bool operator==(const Send&) const = default;
};

/// The home directory entry of one block, as the transition functions see it.
struct HomeEntry {
  State state = State::kModified;  ///< no entry == Modified by the home
  SharerSet sharers;               ///< ranks holding a Shared copy (never the home); busy: acks due
  int owner = -1;                  ///< Modified/busy: the rank holding the valid copy
  bool operator==(const HomeEntry&) const = default;
};

/// The request a busy home entry is serving.
struct HomePending {
  MsgType kind = MsgType::kReadReq;  ///< kReadReq, kWriteReq or kStoreReq
  int requester = -1;
  int acks_left = 0;  ///< invalidation acks or flushes still awaited
  bool operator==(const HomePending&) const = default;
};

/// An event at the home for one block.
struct HomeEvent {
  MsgType type;                      ///< a request, kInvalAck, kFlushData or kRemoteNack
  int src;                           ///< sender rank
  MsgType nacked = MsgType::kInval;  ///< kRemoteNack: which message was refused
  bool write_locked = false;  ///< the home's own write to this block is between grant and apply
};

/// What the home does.
struct HomeOutcome {
  HomeEntry next;
  HomePending pending;           ///< meaningful while next.state is busy
  std::vector<Send> sends;       ///< in order
  bool take_flush_data = false;  ///< copy the FlushData payload into home memory first
  bool apply_store = false;      ///< write the pending store's payload into home memory
  bool nacked = false;           ///< the event was a request answered with kNack
};

/// Home-side transition of block state for `home` (the rank running it). Throws ProtocolError
/// for impossible cells.
HomeOutcome home_transition(int home, const HomeEntry& entry, const HomePending& pending,
                            const HomeEvent& event);

/// What a non-home node does with a message about its copy of a block.
struct CacheOutcome {
  State next;
  std::vector<Send> sends;    ///< to the home
  bool install_data = false;  ///< copy the reply's data into the entry
  bool complete = false;      ///< the outstanding request got its grant: serve waiting accesses
  bool retry = false;         ///< the outstanding request was refused: re-check, then resend
  bool invalidated = false;   ///< a copy was dropped (counter)
};

/// Cache-side transition at a non-home node `self` for a block homed at `home`, current state
/// `state`, on message `type`. `write_locked`: a blocking write of this node to the block holds
/// the write-lock flag (granted, value not yet written). Throws ProtocolError for impossible
/// cells (for example a ReadReply while a copy is held: at most one request per block is
/// outstanding per node).
CacheOutcome cache_transition(int self, int home, State state, MsgType type, bool write_locked);

/// What a local access needs given the local view of the block.
enum class Access { kRead, kWrite };
enum class LocalAction { kHit, kSendRead, kSendWrite };

/// Non-home node: Shared/Modified read hits; Modified write hits.
LocalAction cache_access(State state, Access access);
/// Home node: `has_entry` false is the fast path (hit). Busy entries miss.
LocalAction home_access(int home, bool has_entry, const HomeEntry& entry, Access access);

}  // namespace swcc
