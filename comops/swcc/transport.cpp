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
  if (!send_reqs_.empty())
    MPI_Waitall(static_cast<int>(send_reqs_.size()), send_reqs_.data(), MPI_STATUSES_IGNORE);
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
  int slot;
  if (send_free_.empty()) {
    slot = static_cast<int>(send_bufs_.size());
    send_bufs_.emplace_back(max_bytes_);
    send_reqs_.push_back(MPI_REQUEST_NULL);
  } else {
    slot = send_free_.back();
    send_free_.pop_back();
  }
  std::uint8_t* buf = send_bufs_[slot].data();
  std::memcpy(buf, &h, sizeof h);
  if (h.len) std::memcpy(buf + sizeof h, payload, h.len);
  const int bytes = static_cast<int>(sizeof h + h.len);
  MPI_Isend(buf, bytes, MPI_BYTE, dest, 0, comm_, &send_reqs_[slot]);
  ++messages_sent_;
  bytes_sent_ += bytes;
}

void Transport::reap_sends() {
  if (send_reqs_.size() == send_free_.size()) return;
  int count = 0;
  std::vector<int> done(send_reqs_.size());
  MPI_Testsome(static_cast<int>(send_reqs_.size()), send_reqs_.data(), &count, done.data(),
               MPI_STATUSES_IGNORE);
  for (int i = 0; i < count && count != MPI_UNDEFINED; ++i) send_free_.push_back(done[i]);
}

bool Transport::arrived(Incoming& m) {
  // The network first, so a home answering itself (NACK, retry) cannot starve other ranks.
  int idx = MPI_UNDEFINED, flag = 0;
  MPI_Testany(kRecvs, recv_reqs_.data(), &idx, &flag, MPI_STATUS_IGNORE);
  if (flag && idx != MPI_UNDEFINED) {
    const std::uint8_t* buf = recv_bufs_[idx].data();
    std::memcpy(&m.header, buf, sizeof(MsgHeader));
    m.payload.assign(buf + sizeof(MsgHeader), buf + sizeof(MsgHeader) + m.header.len);
    post(idx);
    return true;
  }
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
