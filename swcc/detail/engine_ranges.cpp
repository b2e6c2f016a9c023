// Sending, and range messages (swcc/README.md): consecutive per-block messages to one rank join
// into one range message while coalescing; a received range message is delivered block by
// block, and a range reply may be received in place (large_destination).
#include <fmt/format.h>

#include "swcc/detail/engine.hpp"
#include "swcc/errors.hpp"

namespace swcc {

bool Engine::coalescable(MsgType t) {
  switch (t) {
    case MsgType::kReadReq:
    case MsgType::kWriteReq:
    case MsgType::kReadReply:
    case MsgType::kWriteReply:
    case MsgType::kInval:
    case MsgType::kInvalAck:
      return true;
    default:
      return false;
  }
}

void Engine::emit_range() {
  if (!range_.active) return;
  range_.active = false;
  transport_.send_large(range_.to, range_.h, range_.payload);
}

void Engine::send(int to, MsgType type, std::uint64_t block, const void* payload, std::uint32_t len,
                  std::uint64_t tag, std::uint32_t offset, MsgType nacked) {
  if (coalescing_ > 0 && coalescable(type) && tag == 0 && offset == 0) {
    const auto* p = static_cast<const std::uint8_t*>(payload);
    MsgHeader& r = range_.h;
    if (range_.active && range_.to == to && r.type == type && r.block + r.count == block &&
        (len == 0) == (r.len == 0) && (len == 0 || range_.payload + r.len == p)) {
      ++r.count;
      r.len += len;
      if (r.count >= kMaxRangeBlocks || r.len + len > kMaxRangeBytes) {
        emit_range();
        transport_.flush();
      }
      return;
    }
    emit_range();
    range_.active = true;
    range_.to = to;
    range_.payload = p;
    r = MsgHeader{};
    r.type = type;
    r.src = rank_;
    r.block = block;
    r.len = len;
    return;
  }
  emit_range();
  MsgHeader h;
  h.type = type;
  h.nacked = nacked;
  h.src = rank_;
  h.block = block;
  h.offset = offset;
  h.len = len;
  h.tag = tag;
  transport_.send(to, h, payload);
}

void Engine::deliver_range(const MsgHeader& h, const std::uint8_t* payload) {
  const std::uint32_t each = h.len / h.count;
  if (each * h.count != h.len || !coalescable(h.type))
    throw ProtocolError(fmt::format("swcc rank {}: malformed range message {} x{} of {} bytes",
                                    rank_, msg_name(h.type), h.count, h.len));
  // Exactly the per-block messages, delivered one after the other; what their handlers send
  // coalesces in turn (the replies to a range request leave as a range reply).
  ++coalescing_;
  MsgHeader one = h;
  one.count = 1;
  one.len = each;
  for (std::uint32_t i = 0; i < h.count; ++i) {
    one.block = h.block + i;
    deliver(one, each ? payload + std::size_t{i} * each : nullptr);
  }
  --coalescing_;
  if (coalescing_ == 0) emit_range();
}

std::uint8_t* Engine::large_destination(const MsgHeader& h) {
  if (h.type != MsgType::kReadReply || h.src == rank_ || h.len != h.count * block_bytes_)
    return nullptr;
  DirRow& row = dir_.row(h.src);
  std::uint8_t* first = nullptr;
  for (std::uint32_t i = 0; i < h.count; ++i) {
    const Entry* e = row.find(h.block + i);
    if (!e || e->state != State::kInvalid) return nullptr;
    if (i == 0) first = e->data;
    if (e->data != first + std::size_t{i} * block_bytes_) return nullptr;
  }
  return first;
}

}  // namespace swcc
