// The slow paths behind Dsm<B>'s inline hit checks: read, write, get, put and store misses and
// prefetches, each a request in the cached mode or an sc request in the uncached one.
#include <cstring>

#include "swcc/detail/engine.hpp"

namespace swcc {

void Engine::read_miss(int home, std::uint64_t off, void* dst, std::size_t len,
                       std::span<const BlockAddr> prefetch_list) {
  check_single("read", home, off, len);
  int done = 0;
  if (!cached()) {
    sc_request(home, off, dst, nullptr, len, &done);
  } else {
    enqueue(home, off, Access{false, false, off, static_cast<std::uint32_t>(len), dst, {}, &done});
    for (const BlockAddr& b : prefetch_list) prefetch(b.home, b.off);
  }
  wait_until([&] { return done != 0; });
}

bool Engine::prefetch(int home, std::uint64_t off) {
  check_pointer("prefetch", home, off, 1);
  if (!cached()) return false;
  const std::uint64_t blk = off >> block_shift_;
  const std::uint64_t k = key(home, blk);
  if (requests_.count(k) || try_read(home, off, nullptr, 0)) return false;
  // A read request whose one access copies nothing: the reply installs the block as Shared,
  // and a NACK is retried like any read request's (the protocol cannot tell them apart).
  ++stats_.prefetches;
  ++outstanding_;
  if (home != rank_) dir_.lookup_or_create(home, blk);
  Request& r = requests_[k];
  r.sent = MsgType::kReadReq;
  r.start = MPI_Wtime();
  r.accesses.push_back(Access{false, false, off, 0, nullptr, {}, nullptr});
  send_request(home, blk, MsgType::kReadReq);
  return true;
}

void Engine::write_miss(int home, std::uint64_t off, const void* src, std::size_t len) {
  check_single("write", home, off, len);
  if (!cached()) {
    int done = 0;
    sc_request(home, off, nullptr, src, len, &done);
    wait_until([&] { return done != 0; });
    return;
  }
  // The write-lock flag: from here until the value is written, a handler that would take the
  // granted block away answers NACK instead.
  write_lock_ = key(home, off >> block_shift_);
  while (!try_write(home, off, src, len)) {
    int done = 0;
    enqueue(home, off,
            Access{true, true, off, static_cast<std::uint32_t>(len), nullptr, {}, &done});
    wait_until([&] { return done != 0; });
  }
  write_lock_ = ~std::uint64_t{0};
}

void Engine::get_miss(int home, std::uint64_t off, void* dst, std::size_t len) {
  check_single("get", home, off, len);
  if (!cached()) return sc_request(home, off, dst, nullptr, len, nullptr);
  ++coalescing_;  // the requests of a bulk get: one range message per run of blocks at one home
  enqueue(home, off, Access{false, false, off, static_cast<std::uint32_t>(len), dst, {}, nullptr});
  --coalescing_;
}

void Engine::put_miss(int home, std::uint64_t off, const void* src, std::size_t len, bool borrow) {
  check_single("put", home, off, len);
  if (!cached()) return sc_request(home, off, nullptr, src, len, nullptr);
  const auto* p = static_cast<const std::uint8_t*>(src);
  std::pmr::vector<std::uint8_t> copy(&pool_);
  if (!borrow) copy.assign(p, p + len);
  Access a{true, false, off, static_cast<std::uint32_t>(len), nullptr, std::move(copy), nullptr};
  a.borrowed = borrow ? p : nullptr;
  ++coalescing_;
  enqueue(home, off, std::move(a));
  --coalescing_;
}

void Engine::store(int home, std::uint64_t off, const void* src, std::size_t len) {
  check_single("store", home, off, len);
  if (!cached()) {
    if (home == rank_) {
      std::memcpy(segment_ + off, src, len);
      ++stats_.hits;
      return;
    }
    return sc_request(home, off, nullptr, src, len, nullptr);
  }
  if (home == rank_ && try_write(home, off, src, len)) {
    ++stats_.hits;
    return;
  }
  const std::uint64_t blk = off >> block_shift_;
  const auto in = static_cast<std::uint32_t>(off & (block_bytes_ - 1));
  const std::uint64_t tag = next_tag_++;
  const auto* p = static_cast<const std::uint8_t*>(src);
  stores_[tag] = StoreOp{home, blk, in, {p, p + len}, MPI_Wtime()};
  ++stats_.misses;
  ++outstanding_;
  send(home, MsgType::kStoreReq, blk, src, static_cast<std::uint32_t>(len), tag, in);
}

}  // namespace swcc
