// The DSM runtime: requests and their accesses, the home/cache/requester handlers that apply
// the pure transitions of protocol_*.cpp, the progress engine and its waits.
#include "swcc/detail/engine.hpp"

#include <fmt/format.h>
#include <sched.h>
#include <sys/mman.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>
#include <exception>
#include <thread>

#include "swcc/detail/bounds.hpp"
#include "swcc/detail/placement.hpp"
#include "swcc/errors.hpp"

namespace swcc {

double load_factor(const std::string& loadavg, int cpus) {
  // "0.52 0.58 0.59 3/467 12345": load averages, then runnable/all scheduling entities
  double load1 = 0;
  long runnable = 0;
  const int got = std::sscanf(loadavg.c_str(), "%lf %*f %*f %ld", &load1, &runnable);
  if (got < 1 || cpus < 1) return 1.0;
  return std::max({1.0, load1 / cpus, static_cast<double>(runnable) / cpus});
}

double load_factor() {
  cpu_set_t set;
  CPU_ZERO(&set);
  int cpus = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;
  if (cpus <= 0) cpus = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::FILE* f = std::fopen("/proc/loadavg", "r");
  if (!f) return 1.0;
  char text[256] = {};
  const bool read = std::fgets(text, sizeof text, f) != nullptr;
  std::fclose(f);
  return read ? load_factor(text, cpus) : 1.0;
}

Engine::Engine(MPI_Comm comm, const Config& config)
    : config_(config),
      transport_(comm,
                 std::max({config.block_bytes, config.uncached ? kScBulkBytes : 64,
                           Transport::kPacketBytes - sizeof(MsgHeader)}),
                 config.fault, config.on_wait),
      rank_(transport_.rank()),
      size_(transport_.size()),
      block_bytes_(config.block_bytes),
      block_shift_(std::countr_zero(config.block_bytes)),
      segment_bytes_((config.segment_bytes + config.block_bytes - 1) / config.block_bytes *
                     config.block_bytes),
      dir_(transport_.rank(), transport_.size(), config.block_bytes),
      yield_when_idle_(host_oversubscribed(transport_.comm(), config.on_wait)) {
  if (!valid_block_bytes(block_bytes_))
    throw ConfigError(invalid_block_bytes_message(block_bytes_));
  if (config_.prefetch > kMaxPrefetch)
    throw ConfigError(
        fmt::format("swcc: prefetch depth {} (at most {})", config_.prefetch, kMaxPrefetch));
  if (size_ > SharerSet::kMaxRanks)  // Engine::key keeps the home rank in 16 bits
    throw Error(fmt::format("swcc: at most {} ranks, not {}", SharerSet::kMaxRanks, size_));
  void* p = mmap(nullptr, segment_bytes_, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED)
    throw Error(fmt::format("swcc: cannot map a {}-byte segment", segment_bytes_));
  segment_ = static_cast<std::uint8_t*>(p);
  if (cached() && !config_.fault.enabled)
    transport_.set_large_destination([this](const MsgHeader& h) { return large_destination(h); });
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

Engine::~Engine() {
  if (std::uncaught_exceptions() == 0) {
    try {
      barrier();
    } catch (...) {
    }
  }
  // A large send reads the segment in place: unmap it only once MPI is done with it (after a
  // failure a peer may never take it; the segment is then leaked rather than pulled away).
  if (transport_.wait_large(1.0)) munmap(segment_, segment_bytes_);
}

Stats Engine::stats() const {
  Stats s = stats_;
  s.messages = transport_.messages_sent();
  s.bytes = transport_.bytes_sent();
  s.packets = transport_.packets_sent();
  return s;
}

std::uint64_t Engine::alloc(std::size_t bytes) {
  std::int64_t v[2] = {static_cast<std::int64_t>(bytes), -static_cast<std::int64_t>(bytes)};
  MPI_Request req;  // non-blocking, so that the wait serves messages and sees on_wait
  MPI_Iallreduce(MPI_IN_PLACE, v, 2, MPI_INT64_T, MPI_MAX, transport_.comm(), &req);
  wait_until([&] {
    int flag = 0;
    MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    return flag != 0;
  });
  if (v[0] != -v[1]) throw Error("swcc: alloc called with different sizes on ranks");
  const std::uint64_t align = std::max<std::size_t>(block_bytes_, 64);
  std::uint64_t off = (next_offset_ + align - 1) / align * align;
  if (off + bytes > segment_bytes_)
    throw Error(
        fmt::format("swcc: segment of {} bytes exhausted (need {} more)", segment_bytes_, bytes));
  next_offset_ = off + bytes;
  return off;
}

void Engine::release_to(std::uint64_t offset) {
  barrier();
  next_offset_ = std::min<std::uint64_t>(next_offset_, offset);
}

void Engine::check_pointer(const char* what, int home, std::uint64_t off,
                           std::uint64_t bytes) const {
  swcc::check_pointer(what, rank_, size_, home, off, bytes, segment_bytes_);
}

void Engine::check_single(const char* what, int home, std::uint64_t off, std::size_t len) const {
  check_pointer(what, home, off, len);
  if (cached()) check_one_block(what, rank_, home, off, len, block_bytes_);
}

// ---- hit checks with the run-time block size (slow paths; Dsm<B> inlines its own) ----

bool Engine::try_read(int home, std::uint64_t off, void* dst, std::size_t len) {
  const std::uint64_t blk = off >> block_shift_;
  if (!cached()) {
    if (home != rank_) return false;
    if (len) std::memcpy(dst, segment_ + off, len);
    return true;
  }
  Entry* e = dir_.row(home).find(blk);
  if (home == rank_) {
    HomeEntry he = e ? HomeEntry{e->state, dir_.sharers(*e), e->owner} : HomeEntry{};
    if (home_access(rank_, e != nullptr, he, swcc::Access::kRead) != LocalAction::kHit)
      return false;
    if (len) std::memcpy(dst, segment_ + off, len);
    return true;
  }
  if (!e || cache_access(e->state, swcc::Access::kRead) != LocalAction::kHit) return false;
  if (len) std::memcpy(dst, e->data + (off & (block_bytes_ - 1)), len);
  return true;
}

bool Engine::try_write(int home, std::uint64_t off, const void* src, std::size_t len) {
  const std::uint64_t blk = off >> block_shift_;
  if (!cached()) {
    if (home != rank_) return false;
    if (len) std::memcpy(segment_ + off, src, len);
    return true;
  }
  Entry* e = dir_.row(home).find(blk);
  if (home == rank_) {
    HomeEntry he = e ? HomeEntry{e->state, dir_.sharers(*e), e->owner} : HomeEntry{};
    if (home_access(rank_, e != nullptr, he, swcc::Access::kWrite) != LocalAction::kHit)
      return false;
    if (e && e->state == State::kShared) {  // no sharers left: silently take it
      e->state = State::kModified;
      e->owner = rank_;
    }
    if (len) std::memcpy(segment_ + off, src, len);
    return true;
  }
  if (!e || cache_access(e->state, swcc::Access::kWrite) != LocalAction::kHit) return false;
  if (len) std::memcpy(e->data + (off & (block_bytes_ - 1)), src, len);
  return true;
}

// ---- requests ----

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

// ---- NACK backoff ----

void Engine::defer(Deferred d) { deferred_.push_back(d); }

void Engine::run_deferred() {
  for (std::size_t i = 0; i < deferred_.size();) {
    if (deferred_[i].due > polls_) {
      ++i;
      continue;
    }
    const Deferred d = deferred_[i];
    deferred_[i] = deferred_.back();
    deferred_.pop_back();
    ++stats_.retries;
    switch (d.kind) {
      case Deferred::kRequest: {
        auto it = requests_.find(d.id);
        if (it == requests_.end()) break;
        const int home = static_cast<int>(d.id >> 48);
        const std::uint64_t blk = d.id & ((std::uint64_t{1} << 48) - 1);
        Request& r = it->second;
        if (complete_accesses(home, blk, r)) {  // the re-check found the access possible now
          requests_.erase(it);
          break;
        }
        r.sent = r.accesses.front().write ? MsgType::kWriteReq : MsgType::kReadReq;
        send_request(home, blk, r.sent);
        break;
      }
      case Deferred::kStore: {
        const StoreOp& st = stores_.at(d.id);
        send(st.home, MsgType::kStoreReq, st.block, st.data.data(),
             static_cast<std::uint32_t>(st.data.size()), d.id, st.off);
        break;
      }
      case Deferred::kRemote:
        send(d.to, d.type, d.id);
        break;
    }
  }
}

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

// ---- handlers ----

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

void Engine::deliver(const MsgHeader& h, const std::uint8_t* payload) {
  forget_hits();  // the handlers below may change any entry
  if (h.count != 1) return deliver_range(h, payload);
  switch (h.type) {
    case MsgType::kReadReq:
    case MsgType::kWriteReq:
    case MsgType::kStoreReq:
    case MsgType::kInvalAck:
    case MsgType::kFlushData:
    case MsgType::kRemoteNack:
      return on_home(h, payload);
    case MsgType::kReadReply:
    case MsgType::kWriteReply:
    case MsgType::kStoreAck:
    case MsgType::kNack:
      if (h.src == rank_) return on_requester(h);
      return on_cache(h, payload);
    case MsgType::kInval:
    case MsgType::kFlush:
    case MsgType::kFlushInval:
      return on_cache(h, payload);
    case MsgType::kScRead:
    case MsgType::kScReadReply:
    case MsgType::kScWrite:
    case MsgType::kScWriteAck:
      return on_sc(h, payload);
    case MsgType::kLockReq:
    case MsgType::kLockGrant:
    case MsgType::kUnlock:
    case MsgType::kUnlockAck:
      return on_lock(h);
    default:
      throw ProtocolError(fmt::format("swcc rank {}: unknown message {}", rank_, int(h.type)));
  }
}

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

void Engine::on_lock(const MsgHeader& h) {
  const int id = static_cast<int>(h.tag);
  if (h.type == MsgType::kLockGrant) {
    granted_[id] = true;
    return;
  }
  if (h.type == MsgType::kUnlockAck) {
    --outstanding_;
    return;
  }
  LockState& l = locks_[id];
  if (h.type == MsgType::kLockReq) {
    if (!l.held) {
      l.held = true;
      send(h.src, MsgType::kLockGrant, 0, nullptr, 0, h.tag);
    } else {
      l.queue.push_back(h.src);
    }
    return;
  }
  send(h.src, MsgType::kUnlockAck, 0, nullptr, 0, h.tag);
  if (l.queue.empty()) {
    l.held = false;
  } else {
    const int next = l.queue.front();
    l.queue.erase(l.queue.begin());
    send(next, MsgType::kLockGrant, 0, nullptr, 0, h.tag);
  }
}

// ---- progress, waits, sync, barrier, locks ----

void Engine::poll() {
  ++polls_;
  emit_range();
  delivered_ =
      transport_.poll([this](const MsgHeader& h, const std::uint8_t* p) { deliver(h, p); });
  if (!deferred_.empty()) {
    run_deferred();
    flush();  // the resends leave now, not at the next poll
  }
}

void Engine::wait_until(const std::function<bool()>& pred) {
  const double t0 = MPI_Wtime();
  try {
    for (std::uint64_t spins = 0;; ++spins) {
      poll();
      if (pred()) return;
      // Oversubscribed runs must still finish: when this host has more of our ranks than CPUs,
      // past 64 polls a poll that delivered nothing gives the core away. A poll that delivered
      // messages (a home serving a bulk transfer, its own requests included) keeps it. With a CPU
      // per rank the wait spins, as MPI's own waits do: a yield lets other load run a time slice
      // while the peer's reply waits (a clean miss between simulated hosts on the loaded machine
      // took 96-258 us instead of 62-65, the request/reply round trip being 60).
      if (yield_when_idle_ && spins > 64 && delivered_ == 0) sched_yield();
      if ((spins & 15) == 15 && config_.on_wait) config_.on_wait();
      if ((spins & 255) == 255) {
        const double now = MPI_Wtime();
        check_watchdog(now, now - t0);
      }
    }
  } catch (...) {
    transport_.abandon();  // the wait may leave a barrier or allreduce pending on its comm
    throw;
  }
}

void Engine::check_watchdog(double now, double waited) {
  // Scanning every outstanding request is O(requests), and the load is read from /proc: at most
  // once a second, or a bulk transfer of many small blocks would pay for it quadratically.
  const bool scan = now >= next_watchdog_scan_;
  if (scan) {
    next_watchdog_scan_ = now + 1.0;
    watchdog_load_ = load_factor();
  }
  const double limit = config_.watchdog_s * watchdog_load_;
  bool late = waited > 2 * limit;
  if (!late && !scan) return;
  for (const auto& [k, r] : requests_) late = late || now - r.start > limit;
  for (const auto& [k, s] : stores_) late = late || now - s.start > limit;
  if (late)
    throw Timeout(fmt::format(
        "swcc rank {}: watchdog: no progress for {:.1f} s (limit {:.0f} s x load {:.1f})\n{}",
        rank_, waited, config_.watchdog_s, watchdog_load_, dump()));
}

void Engine::sync() {
  if (outstanding_ == 0) return;
  wait_until([this] { return outstanding_ == 0; });
}

void Engine::barrier() {
  sync();
  MPI_Request req;
  MPI_Ibarrier(transport_.comm(), &req);
  wait_until([&] {
    int flag = 0;
    MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    return flag != 0;
  });
}

void Engine::lock(int id) {
  if (id < 0)
    throw LockError(fmt::format("swcc rank {}: lock id {} is negative (ids are >= 0)", rank_, id));
  if (granted_.count(id))
    throw LockError(
        fmt::format("swcc rank {}: lock {} is already held by this rank (locks are not re-entrant)",
                    rank_, id));
  granted_[id] = false;
  send(id % size_, MsgType::kLockReq, 0, nullptr, 0, static_cast<std::uint64_t>(id));
  wait_until([&] { return granted_[id]; });
}

void Engine::unlock(int id) {
  const auto held = granted_.find(id);
  if (held == granted_.end() || !held->second)
    throw LockError(
        fmt::format("swcc rank {}: unlock of lock {}, which this rank does not hold", rank_, id));
  sync();  // writes made under the lock are complete before anyone else gets it
  granted_.erase(id);
  ++outstanding_;  // the release is acknowledged, so sync() and barrier() drain lock traffic
  send(id % size_, MsgType::kUnlock, 0, nullptr, 0, static_cast<std::uint64_t>(id));
  flush();
}

bool Engine::quiescent() const {
  return requests_.empty() && stores_.empty() && busy_.empty() && sc_ops_.empty() &&
         deferred_.empty() && outstanding_ == 0 && transport_.held() == 0;
}

std::string Engine::dump() const {
  std::string s =
      fmt::format("rank {}: outstanding={} write_lock={:#x} held={} deferred={}\n", rank_,
                  outstanding_, write_lock_, transport_.held(), deferred_.size());
  for (const auto& [k, r] : requests_)
    s += fmt::format("  request {}:{} sent={} accesses={} age={:.2f}s\n", k >> 48,
                     k & ((std::uint64_t{1} << 48) - 1), msg_name(r.sent), r.accesses.size(),
                     MPI_Wtime() - r.start);
  for (const auto& [t, st] : stores_)
    s += fmt::format("  store {} to {}:{}\n", t, st.home, st.block);
  for (const auto& [b, bz] : busy_)
    s += fmt::format("  busy home block {}: {} from {} acks_left={}\n", b,
                     msg_name(bz.pending.kind), bz.pending.requester, bz.pending.acks_left);
  s += dir_.dump_all();
  return s;
}

}  // namespace swcc
