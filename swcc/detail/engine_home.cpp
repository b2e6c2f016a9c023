// The home's handler: a message about a block of this rank's segment goes through the pure
// home_transition (protocol_home.cpp), whose outcome is applied to memory, directory and sends.
#include <fmt/format.h>

#include <cstring>

#include "swcc/detail/bounds.hpp"
#include "swcc/detail/engine.hpp"
#include "swcc/errors.hpp"

namespace swcc {

void Engine::on_home(const MsgHeader& h, const std::uint8_t* payload) {
  const std::uint64_t blk = h.block;
  // A corrupt message must not reach memory outside the segment: the block, and a store's bytes
  // inside it.
  check_home_block(msg_name(h.type), rank_, h.src, blk, segment_bytes_ >> block_shift_);
  if (h.type == MsgType::kStoreReq)
    check_home_request(msg_name(h.type), rank_, h.src, h.offset, h.len, block_bytes_);
  if (h.type == MsgType::kFlushData && h.len != block_bytes_)
    throw ProtocolError(fmt::format("swcc rank {}: FlushData from rank {} of {} bytes, not {}",
                                    rank_, h.src, h.len, block_bytes_));
  Entry* e = dir_.row(rank_).find(blk);
  // The sharer set: one inline word with 64 ranks or fewer (no allocation), else a copy of the
  // entry's out-of-line words.
  const HomeEntry he =
      e ? HomeEntry{e->state, dir_.sharers(*e), e->owner} : HomeEntry{State::kModified, 0, rank_};
  auto bi = busy_.find(blk);
  const HomePending hp = bi != busy_.end() ? bi->second.pending : HomePending{};
  HomeEvent ev{h.type, h.src, h.nacked, false};
  if (h.type == MsgType::kReadReq || h.type == MsgType::kWriteReq || h.type == MsgType::kStoreReq)
    ev.write_locked =
        write_lock_ == key(rank_, blk) &&
        home_access(rank_, e != nullptr, he, swcc::Access::kWrite) == LocalAction::kHit;
  const HomeOutcome out = home_transition(rank_, he, hp, ev);
  std::uint8_t* mem = segment_ + (blk << block_shift_);
  if (h.type == MsgType::kRemoteNack) ++stats_.nacks;  // retries: counted at the resend
  if (out.take_flush_data) std::memcpy(mem, payload, block_bytes_);
  std::uint64_t store_tag = h.tag;
  if (out.apply_store) {
    if (h.type == MsgType::kStoreReq) {
      std::memcpy(mem + h.offset, payload, h.len);
    } else {
      Busy& b = bi->second;
      std::memcpy(mem + b.store_off, b.store_data.data(), b.store_data.size());
      store_tag = b.store_tag;
    }
  }
  const bool busy = out.next.state == State::kBusyRead || out.next.state == State::kBusyWrite;
  if (busy) {
    Busy& b = busy_[blk];
    b.pending = out.pending;
    if (h.type == MsgType::kStoreReq && !out.nacked) {
      b.store_tag = h.tag;
      b.store_off = h.offset;
      b.store_data.assign(payload, payload + h.len);
    }
  } else if (bi != busy_.end()) {
    busy_.erase(blk);
  }
  const HomeEntry exclusive{State::kModified, 0, rank_};
  if (!e && !(out.next == exclusive)) e = &dir_.lookup_or_create(rank_, blk);
  if (e) {
    e->state = out.next.state;
    dir_.set_sharers(*e, out.next.sharers);
    e->owner = out.next.owner;
  }
  if (h.type == MsgType::kRemoteNack) {  // resend the refused Inval/Flush after a backoff
    Busy& b = busy_.at(blk);
    b.backoff = next_backoff(b.backoff);
    for (const Send& s : out.sends)
      defer({Deferred::kRemote, polls_ + b.backoff, blk, s.to, s.type});
    return;
  }
  for (const Send& s : out.sends) {
    switch (s.type) {
      case MsgType::kNack:
        send(s.to, MsgType::kNack, blk, nullptr, 0, h.tag, 0, h.type);
        break;
      case MsgType::kStoreAck:
        send(s.to, MsgType::kStoreAck, blk, nullptr, 0, store_tag);
        break;
      default:
        send(s.to, s.type, blk, s.with_data ? mem : nullptr,
             s.with_data ? static_cast<std::uint32_t>(block_bytes_) : 0);
    }
  }
}

}  // namespace swcc
