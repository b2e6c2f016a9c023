// Cache-side MSI transitions of one block at a non-home node, and the names of states and
// messages. The Murphi model swcc/model/swcc.m follows it; when one changes, the other
// does:
//   cache_transition() <-> rule "Deliver", m.dst = n > 0 (a cache), one case per message; its
//                          Nack case also stands for Engine::serve()'s re-check and resend
//   cache_access()     <-> rules "IssueRead", "IssueWrite" (kSendRead/kSendWrite), "WriteHit"
#include <fmt/format.h>

#include "swcc/detail/protocol.hpp"

namespace swcc {

const char* state_name(State s) {
  switch (s) {
    case State::kInvalid:
      return "Invalid";
    case State::kShared:
      return "Shared";
    case State::kModified:
      return "Modified";
    case State::kBusyRead:
      return "BusyRead";
    case State::kBusyWrite:
      return "BusyWrite";
  }
  return "?";
}

const char* msg_name(MsgType t) {
  static const char* const kNames[] = {
      "ReadReq",    "WriteReq", "StoreReq",    "ReadReply",  "WriteReply", "StoreAck",
      "Nack",       "Inval",    "Flush",       "FlushInval", "InvalAck",   "FlushData",
      "RemoteNack", "ScRead",   "ScReadReply", "ScWrite",    "ScWriteAck", "LockReq",
      "LockGrant",  "Unlock",   "UnlockAck"};
  static_assert(sizeof(kNames) / sizeof(kNames[0]) == static_cast<int>(MsgType::kCount));
  auto i = static_cast<unsigned>(t);
  return i < static_cast<unsigned>(MsgType::kCount) ? kNames[i] : "?";
}

CacheOutcome cache_transition(int self, int home, State s, MsgType type, bool write_locked) {
  auto impossible = [&]() -> CacheOutcome {
    throw ProtocolError(
        fmt::format("swcc cache (rank {}, home {}): impossible cell state={} "
                    "event={}",
                    self, home, state_name(s), msg_name(type)));
  };
  if (s == State::kBusyRead || s == State::kBusyWrite) return impossible();
  CacheOutcome o{s, {}};
  switch (type) {
    case MsgType::kReadReply:  // one request per block is outstanding: no copy can be held
      if (s != State::kInvalid) return impossible();
      o.next = State::kShared;
      o.install_data = o.complete = true;
      return o;
    case MsgType::kWriteReply:
      if (s == State::kModified) return impossible();
      o.next = State::kModified;
      o.install_data = o.complete = true;
      return o;
    case MsgType::kStoreAck:
      o.complete = true;
      return o;
    case MsgType::kNack:
      o.retry = true;
      return o;
    case MsgType::kInval:
      if (s == State::kModified) return impossible();  // a sharer cannot have been granted M
      if (s == State::kInvalid) {  // our ReadReply is still in flight: refuse, home retries
        o.sends.push_back({MsgType::kRemoteNack, home, false});
        return o;
      }
      o.next = State::kInvalid;
      o.invalidated = true;
      o.sends.push_back({MsgType::kInvalAck, home, false});
      return o;
    case MsgType::kFlush:
    case MsgType::kFlushInval:
      if (s != State::kModified || write_locked) {  // grant in flight, or write lock held
        o.sends.push_back({MsgType::kRemoteNack, home, false});
        return o;
      }
      o.next = type == MsgType::kFlush ? State::kShared : State::kInvalid;
      o.invalidated = type == MsgType::kFlushInval;
      o.sends.push_back({MsgType::kFlushData, home, true});
      return o;
    default:
      return impossible();
  }
}

LocalAction cache_access(State s, Access access) {
  if (access == Access::kRead)
    return s == State::kShared || s == State::kModified ? LocalAction::kHit
                                                        : LocalAction::kSendRead;
  return s == State::kModified ? LocalAction::kHit : LocalAction::kSendWrite;
}

}  // namespace swcc
