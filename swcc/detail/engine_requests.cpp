// A rank's requests for blocks and the accesses riding on them: one request per block, served
// when a grant or NACK arrives, asked again while accesses remain.
#include <fmt/format.h>

#include "swcc/detail/engine.hpp"
#include "swcc/errors.hpp"

namespace swcc {

void Engine::send_request(int home, std::uint64_t block, MsgType type) { send(home, type, block); }

void Engine::enqueue(int home, std::uint64_t off, Access a) {
  const std::uint64_t blk = off >> block_shift_;
  const std::uint64_t k = key(home, blk);
  ++stats_.misses;
  ++outstanding_;
  auto it = requests_.find(k);
  if (it != requests_.end()) {  // one request per block and node: ride on it
    it->second.accesses.push_back(std::move(a));
    return;
  }
  if (home != rank_) dir_.lookup_or_create(home, blk);
  const MsgType type = a.write ? MsgType::kWriteReq : MsgType::kReadReq;
  Request& r = requests_[k];
  r.sent = type;
  r.start = MPI_Wtime();
  r.accesses.push_back(std::move(a));
  send_request(home, blk, type);
}

bool Engine::complete_accesses(int home, std::uint64_t blk, Request& r) {
  std::size_t i = 0;
  for (; i < r.accesses.size(); ++i) {
    Access& a = r.accesses[i];
    bool ok = a.write ? try_write(home, a.off, a.blocking_write ? nullptr : a.payload(),
                                  a.blocking_write ? 0 : a.len)
                      : try_read(home, a.off, a.dst, a.len);
    if (!ok) break;
    if (a.done) *a.done = 1;
    --outstanding_;
  }
  r.accesses.erase(r.accesses.begin(), r.accesses.begin() + static_cast<std::ptrdiff_t>(i));
  return r.accesses.empty();
}

void Engine::serve(int home, std::uint64_t blk, bool after_nack) {
  const std::uint64_t k = key(home, blk);
  auto it = requests_.find(k);
  if (it == requests_.end())
    throw ProtocolError(
        fmt::format("swcc rank {}: reply for block {}:{} with no request", rank_, home, blk));
  Request& r = it->second;
  if (complete_accesses(home, blk, r)) {
    requests_.erase(it);
    return;
  }
  if (after_nack) {  // refused: wait out the backoff, then re-check and resend (run_deferred)
    r.backoff = next_backoff(r.backoff);
    defer({Deferred::kRequest, polls_ + r.backoff, k});
    return;
  }
  r.backoff = 0;  // granted, yet accesses remain (a write behind a read): ask again now
  r.sent = r.accesses.front().write ? MsgType::kWriteReq : MsgType::kReadReq;
  send_request(home, blk, r.sent);
}

}  // namespace swcc
