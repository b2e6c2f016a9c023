// MPI transport of the DSM's active messages: per-destination aggregation into packets, packet
// unpacking, and the optional out-of-order fault injection on the logical messages.
#include "swcc/detail/transport.hpp"

#include <sched.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace swcc {

Transport::Transport(MPI_Comm parent, std::size_t max_payload, const FaultConfig& fault,
                     const std::function<void()>& on_wait)
    : max_bytes_(sizeof(MsgHeader) + max_payload),
      packet_bytes_(std::max(kPacketBytes, max_bytes_)),
      fault_(fault),
      rng_(fault.seed) {
  MPI_Request req;
  MPI_Comm_idup(parent, &comm_, &req);
  for (int flag = 0;;) {
    MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    if (flag) break;
    if (on_wait) on_wait();  // a throw leaves the duplication pending: the run is failing
    sched_yield();
  }
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  rng_.seed(fault.seed * 1000003 + static_cast<std::uint64_t>(rank_));
  out_.resize(static_cast<std::size_t>(size_));
  for (int i = 0; i < kRecvs; ++i) recv_bufs_.push_back(packet_buffer());
  recv_reqs_.assign(kRecvs, MPI_REQUEST_NULL);
  for (int i = 0; i < kRecvs; ++i) post(i);
}

Transport::~Transport() {
  // Unflushed messages are dropped (see the header). The sends MPI has are waited for while the
  // receives stay posted and drained, so two ranks each waiting for the other to take a packet
  // both make progress. After a clean end (the engine's barrier) every packet was received and
  // this returns at once; after a failure a peer may never take its packets, so the wait is
  // bounded.
  const double deadline = MPI_Wtime() + 1.0;
  while (!active_reqs_.empty() && MPI_Wtime() < deadline) {
    reap_sends();
    int flag = 0;
    const int i = recv_order_.front();
    MPI_Test(&recv_reqs_[i], &flag, MPI_STATUS_IGNORE);
    if (flag) {
      recv_order_.pop_front();
      post(i);
    }
  }
  for (MPI_Request& r : recv_reqs_) {
    if (r == MPI_REQUEST_NULL) continue;
    MPI_Cancel(&r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  }
  for (std::size_t i = 0; i < active_reqs_.size(); ++i) {
    // Never taken (failure path only): MPI may still read the buffer, so it is freed to MPI
    // and its buffer deliberately leaked instead of waiting forever.
    MPI_Request_free(&active_reqs_[i]);
    if (active_slots_[i] >= 0)
      new std::vector<std::uint8_t>(std::move(send_bufs_[active_slots_[i]]));
  }
  if (!abandoned_) MPI_Comm_free(&comm_);
}

std::unique_ptr<std::uint8_t[]> Transport::packet_buffer() {
  if (spare_.empty()) return std::unique_ptr<std::uint8_t[]>(new std::uint8_t[packet_bytes_]);
  std::unique_ptr<std::uint8_t[]> b = std::move(spare_.back());
  spare_.pop_back();
  return b;
}

void Transport::post(int i) {
  MPI_Irecv(recv_bufs_[i].get(), static_cast<int>(packet_bytes_), MPI_BYTE, MPI_ANY_SOURCE, 0,
            comm_, &recv_reqs_[i]);
  recv_order_.push_back(i);
}

void Transport::send(int dest, const MsgHeader& h, const void* payload) {
  if (dest == rank_) {
    Incoming m{h, {}};
    if (h.len)
      m.payload.assign(static_cast<const std::uint8_t*>(payload),
                       static_cast<const std::uint8_t*>(payload) + h.len);
    self_.push_back(std::move(m));
    return;
  }
  const std::size_t bytes = sizeof h + h.len;
  if (bytes > max_bytes_)
    throw std::length_error("swcc transport: message of " + std::to_string(bytes) +
                            " bytes, larger than the largest declared (" +
                            std::to_string(max_bytes_) + ")");
  std::vector<std::uint8_t>* out = &out_[static_cast<std::size_t>(dest)];
  if (out->empty()) {
    dirty_.push_back(dest);
  } else if (out->size() + bytes > packet_bytes_) {
    ship(dest);  // the buffer is empty again, and still listed in dirty_
    out = &out_[static_cast<std::size_t>(dest)];
  }
  if (out->capacity() < packet_bytes_) out->reserve(packet_bytes_);
  const std::size_t at = out->size();
  out->resize(at + bytes);
  std::memcpy(out->data() + at, &h, sizeof h);
  if (h.len) std::memcpy(out->data() + at + sizeof h, payload, h.len);
  ++messages_sent_;
  bytes_sent_ += static_cast<std::int64_t>(bytes);
}

void Transport::send_large(int dest, const MsgHeader& h, const void* payload) {
  if (dest == rank_ || sizeof h + h.len <= packet_bytes_) return send(dest, h, payload);
  // The payload's send is posted before its header can leave (the header waits in the outgoing
  // buffer), so the receiver's blocking receive always finds it posted.
  wait_for_send_slot();
  active_slots_.push_back(-1);
  active_reqs_.push_back(MPI_REQUEST_NULL);
  MPI_Isend(payload, static_cast<int>(h.len), MPI_BYTE, dest, kLargeTag, comm_,
            &active_reqs_.back());
  ++large_in_flight_;
  ++packets_sent_;
  MsgHeader only = h;
  std::vector<std::uint8_t>* out = &out_[static_cast<std::size_t>(dest)];
  if (out->empty()) {
    dirty_.push_back(dest);
  } else if (out->size() + sizeof h > packet_bytes_) {
    ship(dest);
    out = &out_[static_cast<std::size_t>(dest)];
  }
  if (out->capacity() < packet_bytes_) out->reserve(packet_bytes_);
  const std::size_t at = out->size();
  out->resize(at + sizeof only);
  std::memcpy(out->data() + at, &only, sizeof only);
  ++messages_sent_;
  bytes_sent_ += static_cast<std::int64_t>(sizeof h + h.len);
}

bool Transport::wait_large(double seconds) {
  const double deadline = MPI_Wtime() + seconds;
  for (;;) {
    reap_sends();
    if (large_in_flight_ == 0) return true;
    if (MPI_Wtime() > deadline) return false;
    while (receive_packet()) {
    }
  }
}

void Transport::flush() {
  for (int dest : dirty_) ship(dest);
  dirty_.clear();
}

void Transport::ship(int dest) {
  wait_for_send_slot();
  int slot;
  if (send_free_.empty()) {
    slot = static_cast<int>(send_bufs_.size());
    send_bufs_.emplace_back();
  } else {
    slot = send_free_.back();
    send_free_.pop_back();
  }
  std::vector<std::uint8_t>& buf = send_bufs_[slot];
  buf.swap(out_[static_cast<std::size_t>(dest)]);
  out_[static_cast<std::size_t>(dest)].clear();
  active_slots_.push_back(slot);
  active_reqs_.push_back(MPI_REQUEST_NULL);
  MPI_Isend(buf.data(), static_cast<int>(buf.size()), MPI_BYTE, dest, 0, comm_,
            &active_reqs_.back());
  ++packets_sent_;
}

void Transport::reap_sends() {
  if (active_reqs_.empty()) return;
  int count = 0;
  done_.resize(active_reqs_.size());
  MPI_Testsome(static_cast<int>(active_reqs_.size()), active_reqs_.data(), &count, done_.data(),
               MPI_STATUSES_IGNORE);
  if (count == MPI_UNDEFINED || count == 0) return;
  // Completed requests are MPI_REQUEST_NULL now: free their slots and compact the rest.
  std::size_t kept = 0;
  for (std::size_t i = 0; i < active_reqs_.size(); ++i) {
    if (active_reqs_[i] == MPI_REQUEST_NULL) {
      if (active_slots_[i] < 0)
        --large_in_flight_;
      else
        send_free_.push_back(active_slots_[i]);
      continue;
    }
    active_reqs_[kept] = active_reqs_[i];
    active_slots_[kept] = active_slots_[i];
    ++kept;
  }
  active_reqs_.resize(kept);
  active_slots_.resize(kept);
}

void Transport::wait_for_send_slot() {
  while (active_reqs_.size() >= kMaxInFlight) {
    reap_sends();
    while (receive_packet()) {
    }
  }
}

bool Transport::receive_packet() {
  // The oldest posted receive is the first MPI matches; testing it alone keeps packets in
  // matching order (MPI's non-overtaking rule then keeps each sender's messages in order).
  const int i = recv_order_.front();
  int flag = 0;
  MPI_Status st;
  MPI_Test(&recv_reqs_[i], &flag, &st);
  if (!flag) return false;
  recv_order_.pop_front();
  int count = 0;
  MPI_Get_count(&st, MPI_BYTE, &count);
  packets_.push_back({std::move(recv_bufs_[i]), static_cast<std::size_t>(count), st.MPI_SOURCE});
  recv_bufs_[i] = packet_buffer();
  post(i);
  return true;
}

bool Transport::from_network(View& v) {
  for (;;) {
    if (packets_.empty()) {
      if (network_dry_) return false;
      if (!receive_packet()) {
        network_dry_ = true;
        return false;
      }
      continue;
    }
    Packet& p = packets_.front();
    if (cursor_ == p.len) {  // read to the end: the message delivered last is done with it
      spare_.push_back(std::move(p.bytes));
      packets_.pop_front();
      cursor_ = 0;
      continue;
    }
    if (p.len - cursor_ < sizeof(MsgHeader))
      throw ProtocolError("swcc transport: truncated message header in a packet");
    std::memcpy(&v.header, p.bytes.get() + cursor_, sizeof(MsgHeader));
    cursor_ += sizeof(MsgHeader);
    if (sizeof(MsgHeader) + v.header.len > packet_bytes_) {  // send_large(): its own message
      std::uint8_t* into = large_dest_ ? large_dest_(v.header) : nullptr;
      if (!into) {
        if (large_.size() < v.header.len) large_.resize(v.header.len);
        into = large_.data();
      }
      MPI_Status st;
      MPI_Recv(into, static_cast<int>(v.header.len), MPI_BYTE, p.src, kLargeTag, comm_, &st);
      int got = 0;
      MPI_Get_count(&st, MPI_BYTE, &got);
      if (got != static_cast<int>(v.header.len))
        throw ProtocolError("swcc transport: large payload of the wrong length");
      v.payload = into;
      return true;
    }
    if (p.len - cursor_ < v.header.len)
      throw ProtocolError("swcc transport: truncated message payload in a packet");
    v.payload = p.bytes.get() + cursor_;
    cursor_ += v.header.len;
    return true;
  }
}

void Transport::take(Incoming&& m, View& v) {
  taken_ = std::move(m);
  v.header = taken_.header;
  v.payload = taken_.payload.data();
}

bool Transport::arrived(View& v) {
  // The network first (packets received earlier, then new ones, asked for until MPI has none in
  // this poll), so a home answering itself (NACK, retry) cannot starve other ranks.
  if (from_network(v)) return true;
  if (self_.empty()) return false;
  take(std::move(self_.front()), v);
  self_.pop_front();
  return true;
}

bool Transport::next(View& v) {
  if (!fault_.enabled) return arrived(v);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  // Release a held message first, sometimes, in random order.
  if (!held_.empty() && u(rng_) < fault_.release_probability) {
    std::size_t i = std::uniform_int_distribution<std::size_t>(0, held_.size() - 1)(rng_);
    take(std::move(held_[i]), v);
    held_[i] = std::move(held_.back());
    held_.pop_back();
    return true;
  }
  while (arrived(v)) {
    if (u(rng_) >= fault_.hold_probability) return true;
    held_.push_back({v.header, {v.payload, v.payload + v.header.len}});
  }
  return false;
}

}  // namespace swcc
