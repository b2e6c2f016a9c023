// The cache's and the requester's handlers: a message from a block's home goes through the pure
// cache_transition (protocol_cache.cpp); replies to this rank's own requests serve them.
#include <cstring>

#include "swcc/detail/engine.hpp"

namespace swcc {

void Engine::on_requester(const MsgHeader& h) {
  // The home's own requests: its directory entry already says what it may do.
  switch (h.type) {
    case MsgType::kStoreAck:
      stores_.erase(h.tag);
      --outstanding_;
      return;
    case MsgType::kNack:
      ++stats_.nacks;
      if (h.nacked == MsgType::kStoreReq) {
        StoreOp& st = stores_.at(h.tag);
        st.backoff = next_backoff(st.backoff);
        defer({Deferred::kStore, polls_ + st.backoff, h.tag});
        return;
      }
      return serve(rank_, h.block, true);
    default:
      return serve(rank_, h.block, false);
  }
}

void Engine::on_cache(const MsgHeader& h, const std::uint8_t* payload) {
  const int home = h.src;
  const std::uint64_t blk = h.block;
  if (h.type == MsgType::kStoreAck || (h.type == MsgType::kNack && h.nacked == MsgType::kStoreReq))
    return on_requester(h);
  Entry& e = dir_.lookup_or_create(home, blk);
  const bool locked = write_lock_ == key(home, blk);
  const CacheOutcome out = cache_transition(rank_, home, e.state, h.type, locked);
  if (h.type == MsgType::kNack) ++stats_.nacks;
  if (out.install_data && e.data != payload) std::memcpy(e.data, payload, block_bytes_);
  e.state = out.next;
  if (out.invalidated) ++stats_.invalidations;
  for (const Send& s : out.sends) {
    if (s.type == MsgType::kRemoteNack)
      send(home, MsgType::kRemoteNack, blk, nullptr, 0, 0, 0, h.type);
    else
      send(home, s.type, blk, s.with_data ? e.data : nullptr,
           s.with_data ? static_cast<std::uint32_t>(block_bytes_) : 0);
  }
  if (out.complete || out.retry) serve(home, blk, out.retry);
}

}  // namespace swcc
