// Home-side MSI transitions of one block: requests, invalidation acks, flushes and refusals.
// The Murphi model swcc/model/swcc.m follows it; when one changes, the other does:
//   on_request()            <-> rule "Deliver", m.dst = 0, case ReadReq, WriteReq, StoreReq
//   kInvalAck / kFlushData  <-> rule "Deliver", m.dst = 0, case InvalAck / FlushData
//   kRemoteNack             <-> rule "Deliver", m.dst = 0, case RemoteNack
//   finish()                <-> procedure Finish
//   ev.write_locked         <-> function HomeWriteLocked (the home's own write lock)
//   home_access()           <-> function HomeHit; rules "HomeIssueRead", "HomeIssueWrite",
//                               "HomeIssueStore" (misses), "HomeWriteHit" (write hits)
#include <fmt/format.h>

#include <utility>

#include "swcc/detail/protocol.hpp"

namespace swcc {
namespace {

SharerSet only(int r) {
  SharerSet s;
  s.insert(r);
  return s;
}

[[noreturn]] void impossible(const HomeEntry& e, const HomeEvent& ev) {
  throw ProtocolError(
      fmt::format("swcc home: impossible cell state={} owner={} sharers={} "
                  "event={} from {}",
                  state_name(e.state), e.owner, e.sharers.to_string(), msg_name(ev.type), ev.src));
}

HomeOutcome nack(const HomeEntry& e, const HomePending& p, int src) {
  HomeOutcome o{e, p, {{MsgType::kNack, src, false}}};
  o.nacked = true;
  return o;
}

// Completes the pending request once every ack or flush is in; the entry is stable afterwards.
void finish(int home, HomeOutcome& o) {
  const HomePending& p = o.pending;
  if (p.kind == MsgType::kReadReq) {
    o.next = {State::kShared, 0, -1};
    if (p.requester != home) o.next.sharers.insert(p.requester);
    o.sends.push_back({MsgType::kReadReply, p.requester, p.requester != home});
  } else if (p.kind == MsgType::kWriteReq) {
    o.next = {State::kModified, 0, p.requester};
    o.sends.push_back({MsgType::kWriteReply, p.requester, p.requester != home});
  } else {
    o.next = {State::kModified, 0, home};
    o.apply_store = true;
    o.sends.push_back({MsgType::kStoreAck, p.requester, false});
  }
  o.pending = {};
}

HomeOutcome on_request(int home, const HomeEntry& e, const HomePending& p, const HomeEvent& ev) {
  const int s = ev.src;
  if (e.state == State::kBusyRead || e.state == State::kBusyWrite) return nack(e, p, s);
  // The home's own blocking write holds the write-lock flag: refuse whoever would take it away.
  if (ev.write_locked && s != home) return nack(e, p, s);
  HomeOutcome o{e, p, {}};
  const bool home_owns = e.state == State::kModified && e.owner == home;
  switch (ev.type) {
    case MsgType::kReadReq:
      if (home_owns) {
        if (s != home) o.next = {State::kShared, only(s), -1};
        o.sends.push_back({MsgType::kReadReply, s, s != home});
      } else if (e.state == State::kModified) {
        if (e.owner == s) return nack(e, p, s);  // its grant is still in flight
        o.next = {State::kBusyRead, e.sharers, e.owner};
        o.pending = {MsgType::kReadReq, s, 1};
        o.sends.push_back({MsgType::kFlush, e.owner, false});
      } else {                                                         // Shared
        if (s != home && e.sharers.contains(s)) return nack(e, p, s);  // reply in flight
        if (s != home) o.next.sharers.insert(s);
        o.sends.push_back({MsgType::kReadReply, s, s != home});
      }
      return o;
    case MsgType::kWriteReq:
      if (home_owns) {
        o.next = {State::kModified, 0, s};
        o.sends.push_back({MsgType::kWriteReply, s, s != home});
      } else if (e.state == State::kModified) {
        if (e.owner == s) return nack(e, p, s);
        o.next = {State::kBusyWrite, 0, e.owner};
        o.pending = {MsgType::kWriteReq, s, 1};
        o.sends.push_back({MsgType::kFlushInval, e.owner, false});
      } else {  // Shared: invalidate every other sharer, then grant
        SharerSet targets = e.sharers;
        if (s != home) targets.erase(s);
        if (targets.empty()) {
          o.next = {State::kModified, 0, s};
          o.sends.push_back({MsgType::kWriteReply, s, s != home});
        } else {
          o.pending = {MsgType::kWriteReq, s, targets.count()};
          for (int r : targets) o.sends.push_back({MsgType::kInval, r, false});  // rank order
          o.next = {State::kBusyWrite, std::move(targets), -1};
        }
      }
      return o;
    case MsgType::kStoreReq:
      if (home_owns) {
        o.apply_store = true;
        o.sends.push_back({MsgType::kStoreAck, s, false});
      } else if (e.state == State::kModified) {  // the owner may be the requester itself
        o.next = {State::kBusyWrite, 0, e.owner};
        o.pending = {MsgType::kStoreReq, s, 1};
        o.sends.push_back({MsgType::kFlushInval, e.owner, false});
      } else if (e.sharers.empty()) {
        o.next = {State::kModified, 0, home};
        o.apply_store = true;
        o.sends.push_back({MsgType::kStoreAck, s, false});
      } else {  // every copy goes, the requester's too: the home will own the block
        o.next = {State::kBusyWrite, e.sharers, -1};
        o.pending = {MsgType::kStoreReq, s, e.sharers.count()};
        for (int r : e.sharers) o.sends.push_back({MsgType::kInval, r, false});  // rank order
      }
      return o;
    default:
      impossible(e, ev);
  }
}

}  // namespace

HomeOutcome home_transition(int home, const HomeEntry& e, const HomePending& p,
                            const HomeEvent& ev) {
  switch (ev.type) {
    case MsgType::kReadReq:
    case MsgType::kWriteReq:
    case MsgType::kStoreReq:
      return on_request(home, e, p, ev);
    case MsgType::kInvalAck: {
      // Only while collecting acks, from a rank we invalidated and have not heard from.
      if (e.state != State::kBusyWrite || e.owner != -1 || !e.sharers.contains(ev.src) ||
          p.acks_left <= 0)
        impossible(e, ev);
      HomeOutcome o{e, p, {}};
      o.next.sharers.erase(ev.src);
      if (--o.pending.acks_left == 0) finish(home, o);  // write atomicity: all acks first
      return o;
    }
    case MsgType::kFlushData: {
      if ((e.state != State::kBusyRead && e.state != State::kBusyWrite) || e.owner != ev.src)
        impossible(e, ev);
      HomeOutcome o{e, p, {}};
      o.take_flush_data = true;
      if (e.state == State::kBusyRead) {
        finish(home, o);
        o.next.sharers.insert(ev.src);  // the old owner keeps a Shared copy
      } else {
        finish(home, o);
      }
      return o;
    }
    case MsgType::kRemoteNack: {
      // The target had not yet received its grant (non-FIFO) or holds the write lock: resend.
      const bool flush = ev.nacked == MsgType::kFlush || ev.nacked == MsgType::kFlushInval;
      if (flush &&
          (e.owner != ev.src || (e.state != State::kBusyRead && e.state != State::kBusyWrite)))
        impossible(e, ev);
      if (flush && ((e.state == State::kBusyRead) != (ev.nacked == MsgType::kFlush)))
        impossible(e, ev);
      if (ev.nacked == MsgType::kInval &&
          (e.state != State::kBusyWrite || e.owner != -1 || !e.sharers.contains(ev.src)))
        impossible(e, ev);
      if (!flush && ev.nacked != MsgType::kInval) impossible(e, ev);
      return {e, p, {{ev.nacked, ev.src, false}}};
    }
    default:
      impossible(e, ev);
  }
}

LocalAction home_access(int home, bool has_entry, const HomeEntry& e, Access access) {
  if (!has_entry) return LocalAction::kHit;
  const bool home_owns = e.state == State::kModified && e.owner == home;
  if (access == Access::kRead) {
    if (home_owns || e.state == State::kShared) return LocalAction::kHit;
    return LocalAction::kSendRead;
  }
  if (home_owns || (e.state == State::kShared && e.sharers.empty())) return LocalAction::kHit;
  return LocalAction::kSendWrite;
}

}  // namespace swcc
