// MPI transport of the DSM's active messages, with the optional out-of-order fault injection.
#include "comops/swcc/transport.hpp"

#include <cstring>

namespace comops::swcc {

Transport::Transport(MPI_Comm parent, std::size_t max_payload, const FaultConfig& fault)
    : max_bytes_(sizeof(MsgHeader) + max_payload), fault_(fault), rng_(fault.seed) {
  MPI_Comm_dup(parent, &comm_);
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  rng_.seed(fault.seed * 1000003 + static_cast<std::uint64_t>(rank_));
  recv_bufs_.assign(kRecvs, std::vector<std::uint8_t>(max_bytes_));
  recv_reqs_.assign(kRecvs, MPI_REQUEST_NULL);
  for (int i = 0; i < kRecvs; ++i) post(i);
}

Transport::~Transport() {
  for (MPI_Request& r : recv_reqs_) {
    if (r == MPI_REQUEST_NULL) continue;
    MPI_Cancel(&r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  }
  if (!active_reqs_.empty())
    MPI_Waitall(static_cast<int>(active_reqs_.size()), active_reqs_.data(), MPI_STATUSES_IGNORE);
  MPI_Comm_free(&comm_);
}

void Transport::post(int i) {
  MPI_Irecv(recv_bufs_[i].data(), static_cast<int>(max_bytes_), MPI_BYTE, MPI_ANY_SOURCE, 0, comm_,
            &recv_reqs_[i]);
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
  wait_for_send_slot();
  int slot;
  if (send_free_.empty()) {
    slot = static_cast<int>(send_bufs_.size());
    send_bufs_.emplace_back();
  } else {
    slot = send_free_.back();
    send_free_.pop_back();
  }
  const int bytes = static_cast<int>(sizeof h + h.len);
  std::vector<std::uint8_t>& buf = send_bufs_[slot];
  buf.resize(static_cast<std::size_t>(bytes));
  std::memcpy(buf.data(), &h, sizeof h);
  if (h.len) std::memcpy(buf.data() + sizeof h, payload, h.len);
  active_slots_.push_back(slot);
  active_reqs_.push_back(MPI_REQUEST_NULL);
  MPI_Isend(buf.data(), bytes, MPI_BYTE, dest, 0, comm_, &active_reqs_.back());
  ++messages_sent_;
  bytes_sent_ += bytes;
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
    Incoming m;
    while (from_network(m)) stash_.push_back(std::move(m));
  }
}

bool Transport::from_network(Incoming& m) {
  int idx = MPI_UNDEFINED, flag = 0;
  MPI_Testany(kRecvs, recv_reqs_.data(), &idx, &flag, MPI_STATUS_IGNORE);
  if (!flag || idx == MPI_UNDEFINED) return false;
  const std::uint8_t* buf = recv_bufs_[idx].data();
  std::memcpy(&m.header, buf, sizeof(MsgHeader));
  m.payload.assign(buf + sizeof(MsgHeader), buf + sizeof(MsgHeader) + m.header.len);
  post(idx);
  return true;
}

bool Transport::arrived(Incoming& m) {
  // The network first (what send() stashed, then new arrivals), so a home answering itself
  // (NACK, retry) cannot starve other ranks.
  if (!stash_.empty()) {
    m = std::move(stash_.front());
    stash_.pop_front();
    return true;
  }
  if (from_network(m)) return true;
  if (self_.empty()) return false;
  m = std::move(self_.front());
  self_.pop_front();
  return true;
}

bool Transport::next(Incoming& m) {
  if (!fault_.enabled) return arrived(m);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  // Release a held message first, sometimes, in random order.
  if (!held_.empty() && u(rng_) < fault_.release_probability) {
    std::size_t i = std::uniform_int_distribution<std::size_t>(0, held_.size() - 1)(rng_);
    m = std::move(held_[i]);
    held_[i] = std::move(held_.back());
    held_.pop_back();
    return true;
  }
  while (arrived(m)) {
    if (u(rng_) >= fault_.hold_probability) return true;
    held_.push_back(std::move(m));
  }
  return false;
}

}  // namespace comops::swcc
