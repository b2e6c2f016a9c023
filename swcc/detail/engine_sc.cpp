// The uncached (sc) mode: every access not to this rank's memory is a read or write request
// served by the home's segment directly, with no directory.
#include <fmt/format.h>

#include <cstring>

#include "swcc/detail/bounds.hpp"
#include "swcc/detail/engine.hpp"
#include "swcc/errors.hpp"

namespace swcc {

void Engine::sc_request(int home, std::uint64_t off, void* dst, const void* src, std::size_t len,
                        int* done) {
  const std::uint64_t tag = next_tag_++;
  ++stats_.misses;
  ++outstanding_;
  sc_ops_[tag] = {dst, done};
  if (dst)
    send(home, MsgType::kScRead, off, nullptr, 0, tag, static_cast<std::uint32_t>(len));
  else
    send(home, MsgType::kScWrite, off, src, static_cast<std::uint32_t>(len), tag);
}

void Engine::on_sc(const MsgHeader& h, const std::uint8_t* payload) {
  switch (h.type) {
    case MsgType::kScRead:
      check_home_request(msg_name(h.type), rank_, h.src, h.block, h.offset, segment_bytes_);
      send(h.src, MsgType::kScReadReply, h.block, segment_ + h.block, h.offset, h.tag);
      return;
    case MsgType::kScWrite:
      check_home_request(msg_name(h.type), rank_, h.src, h.block, h.len, segment_bytes_);
      std::memcpy(segment_ + h.block, payload, h.len);
      send(h.src, MsgType::kScWriteAck, h.block, nullptr, 0, h.tag);
      return;
    default: {
      auto it = sc_ops_.find(h.tag);
      if (it == sc_ops_.end())
        throw ProtocolError(fmt::format("swcc rank {}: sc reply {} unknown", rank_, h.tag));
      if (h.type == MsgType::kScReadReply) std::memcpy(it->second.dst, payload, h.len);
      if (it->second.done) *it->second.done = 1;
      sc_ops_.erase(it);
      --outstanding_;
    }
  }
}

}  // namespace swcc
