// The DSM runtime of one rank, independent of the compiled block size: global segment and
// collective allocator, outstanding requests, the protocol handlers, the progress engine, sync,
// barrier, locks, the uncached (sc) mode, counters and the watchdog. It is behind every Dsm<B>
// of swcc/swcc.hpp, which a program includes instead of this. Its members are defined in
// swcc/detail/engine*.cpp, one file per job, whose first line says which.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory_resource>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "swcc/block_sizes.hpp"
#include "swcc/config.hpp"
#include "swcc/detail/directory.hpp"
#include "swcc/detail/load_factor.hpp"  // the watchdog's stretch, for the engine's users too
#include "swcc/detail/lock_home.hpp"
#include "swcc/detail/protocol.hpp"
#include "swcc/detail/transport.hpp"
#include "swcc/errors.hpp"

namespace swcc {

/// A block by home rank and a byte offset inside it (the prefetch list of a read miss).
struct BlockAddr {
  int home;
  std::uint64_t off;
};

class Engine {
 public:
  /// Collective over `comm` (duplicated inside).
  Engine(MPI_Comm comm, const Config& config);
  /// Collective: waits until every rank is done, then frees the communicator.
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  std::size_t block_bytes() const { return block_bytes_; }
  bool cached() const { return !config_.uncached; }
  const Config& config() const { return config_; }
  std::uint8_t* segment() { return segment_; }
  /// Bytes of every rank's segment: Config::segment_bytes rounded up to a whole block.
  std::uint64_t segment_bytes() const { return segment_bytes_; }
  /// Throws AccessError when (home, off) with `bytes` is not inside a rank's segment
  /// (check_pointer of swcc/detail/bounds.hpp for this rank, its ranks and segment).
  void check_pointer(const char* what, int home, std::uint64_t off, std::uint64_t bytes) const;
  Directory& dir() { return dir_; }
  Stats stats() const;
  std::int64_t& hit_counter() { return stats_.hits; }

  /// One number per (home rank, block).
  static std::uint64_t key(int home, std::uint64_t block) {
    return (static_cast<std::uint64_t>(home) << 48) | block;
  }
  /// The last block an inline access hit, for reads and for writes: Dsm<B> compares the home
  /// and the offset into the block before it probes the directory, so a run of accesses to one
  /// block skips the probe. A memo only ever holds a block the miss path checked (inside a
  /// rank's segment) and a permission the entry grants; entries lose permissions only in the
  /// message handlers, so every message delivery clears both (forget_hits). Other entry changes
  /// (a new Invalid entry, the home's silent upgrade) grant nothing a memo could hold.
  struct HitMemo {
    static constexpr std::uint64_t kNone = ~std::uint64_t{0};
    /// The home rank as an unsigned 32-bit number; kNone (no int's value) when empty.
    std::uint64_t home = kNone;
    std::uint64_t first = 0;       ///< the block's first byte offset in the home's segment
    std::uint8_t* base = nullptr;  ///< the block's first byte (home memory or cached data)
  };
  HitMemo& read_memo() { return read_memo_; }
  HitMemo& write_memo() { return write_memo_; }
  void forget_hits() {
    read_memo_.home = write_memo_.home = HitMemo::kNone;
    ++deliveries_;
  }
  /// Messages delivered so far (each delivery calls forget_hits): a view (Dsm<B>::read_view)
  /// is certainly current while it is unchanged.
  const std::uint64_t& deliveries() const { return deliveries_; }

  /// Collective: reserves `bytes` in every rank's segment; returns the same offset everywhere.
  std::uint64_t alloc(std::size_t bytes);
  /// Collective: releases everything allocated at or after `offset`.
  void release_to(std::uint64_t offset);

  // Slow paths, called by Dsm<B> after its inline hit check failed. [off, off+len) lies inside
  // one block of `home`'s segment (else AccessError, as for a pointer outside the segments).
  /// `prefetch`: blocks to ask for after the missed one is requested and before waiting for it
  /// (see prefetch()).
  void read_miss(int home, std::uint64_t off, void* dst, std::size_t len,
                 std::span<const BlockAddr> prefetch = {});
  void write_miss(int home, std::uint64_t off, const void* src, std::size_t len);
  void get_miss(int home, std::uint64_t off, void* dst, std::size_t len);
  /// `borrow`: the source is read in place when the grant arrives, not copied now; the caller
  /// keeps it unchanged until sync() returns (Dsm<B>::write_bulk).
  void put_miss(int home, std::uint64_t off, const void* src, std::size_t len, bool borrow = false);
  /// Asks for a Shared copy of the block holding `off` without waiting: it arrives into the
  /// cache, and a later read finds it as a hit or rides on the request in flight. Sends nothing
  /// (returns false) in sc mode, when this rank may read the block already, or when a request
  /// for it is outstanding. Counted in Stats::prefetches; sync() waits for it.
  bool prefetch(int home, std::uint64_t off);
  /// Store: the home ends up owning the block with the bytes written. Completes by sync().
  void store(int home, std::uint64_t off, const void* src, std::size_t len);

  /// Waits for every outstanding get, put and store of this rank.
  void sync();
  /// sync, then a barrier over all ranks that serves protocol messages while waiting.
  void barrier();
  /// A global lock (id >= 0) homed at rank id % size; the wait serves protocol messages.
  /// LockError for a negative id, or a lock this rank holds or waits for (not re-entrant).
  void lock(int id);
  /// LockError for a lock this rank does not hold.
  void unlock(int id);
  /// Runs the progress engine once.
  void poll();
  /// Hands the messages sent so far to the network (the transport may hold them to carry
  /// several in one MPI message). Every call that waits polls, and polling flushes; a call that
  /// sends and returns without waiting (the Dsm's get, put, store; unlock) flushes at its end.
  void flush() {
    emit_range();
    transport_.flush();
  }
  /// Polls until pred() holds: spin, then sched_yield; throws on a watchdog timeout.
  void wait_until(const std::function<bool()>& pred);
  /// Whether idle waits give the core away: this host has more of the DSM's ranks than CPUs
  /// for them (host_oversubscribed). Waits outside the engine that poll it follow the same rule.
  bool yields_when_idle() const { return yield_when_idle_; }

  /// Directory dump plus outstanding requests, for failure reports.
  std::string dump() const;
  /// True when this rank has no outstanding request and its home entries are stable.
  bool quiescent() const;

 private:
  struct Access {
    bool write;           ///< needs Modified
    bool blocking_write;  ///< write(): the caller applies the value after the grant
    std::uint64_t off;    ///< byte offset in the home's segment
    std::uint32_t len;
    void* dst;
    std::pmr::vector<std::uint8_t> data;     ///< put payload, in pool_
    int* done;                               ///< set to 1 when finished (may be null)
    const std::uint8_t* borrowed = nullptr;  ///< put payload read in place (data empty)
    const std::uint8_t* payload() const { return borrowed ? borrowed : data.data(); }
  };
  /// A request and the accesses riding on it; its access list lives in pool_ (allocator-aware,
  /// so that requests_ builds it there).
  struct Request {
    using allocator_type = std::pmr::polymorphic_allocator<Access>;
    explicit Request(const allocator_type& a) : accesses(a) {}
    MsgType sent = MsgType::kReadReq;  ///< kReadReq or kWriteReq
    std::pmr::vector<Access> accesses;
    double start = 0;
    std::uint32_t backoff = 0;  ///< polls to wait before the next resend after a NACK
  };
  struct StoreOp {
    int home;
    std::uint64_t block;
    std::uint32_t off;
    std::vector<std::uint8_t> data;
    double start;
    std::uint32_t backoff = 0;
  };
  struct Busy {  ///< a home block serving a request
    HomePending pending;
    std::uint64_t store_tag = 0;
    std::uint32_t store_off = 0;
    std::vector<std::uint8_t> store_data;
    std::uint32_t backoff = 0;  ///< before resending an Inval/Flush refused by RemoteNack
  };
  /// A resend put off by the NACK backoff: due once polls_ reaches `due`.
  struct Deferred {
    enum Kind : std::uint8_t { kRequest, kStore, kRemote } kind;
    std::uint64_t due;
    std::uint64_t id;  ///< kRequest: key(home, block); kStore: store id; kRemote: home block
    int to = -1;       ///< kRemote: the refusing rank
    MsgType type = MsgType::kInval;  ///< kRemote: the refused message
  };
  /// Backoff after a NACK: 1, 2, 4, ... polls of the progress engine, capped; reset on success.
  static constexpr std::uint32_t kMaxBackoffPolls = 64;
  static std::uint32_t next_backoff(std::uint32_t b) {
    return b == 0 ? 1 : (b >= kMaxBackoffPolls ? kMaxBackoffPolls : 2 * b);
  }
  void defer(Deferred d);
  void run_deferred();
  /// Serves what the entry now allows; false when accesses remain.
  bool complete_accesses(int home, std::uint64_t block, Request& r);

  /// check_pointer, then (cached) that the access lies in one block: the single misses.
  void check_single(const char* what, int home, std::uint64_t off, std::size_t len) const;
  bool try_read(int home, std::uint64_t off, void* dst, std::size_t len);
  bool try_write(int home, std::uint64_t off, const void* src, std::size_t len);
  void enqueue(int home, std::uint64_t off, Access a);
  void send_request(int home, std::uint64_t block, MsgType type);
  void serve(int home, std::uint64_t block, bool after_nack);
  void deliver(const MsgHeader& h, const std::uint8_t* payload);
  void on_home(const MsgHeader& h, const std::uint8_t* payload);
  void on_cache(const MsgHeader& h, const std::uint8_t* payload);
  void on_requester(const MsgHeader& h);
  void on_sc(const MsgHeader& h, const std::uint8_t* payload);
  void on_lock(const MsgHeader& h);
  void send(int to, MsgType type, std::uint64_t block, const void* payload = nullptr,
            std::uint32_t len = 0, std::uint64_t tag = 0, std::uint32_t offset = 0,
            MsgType nacked = MsgType::kReadReq);
  /// Range messages (swcc/README.md): while coalescing_ > 0 (a bulk get or put issuing its
  /// requests, the delivery of a range message), a send of a coalescable type with no tag joins
  /// the pending range message when it is the same type to the same rank for the next block
  /// (and its payload, if any, follows the pending one in memory); anything else emits the
  /// pending message first, so every rank receives its messages in the order sent.
  static bool coalescable(MsgType t);
  /// Transport::set_large_destination: a range ReadReply whose blocks are all Invalid here
  /// with contiguous cached data is received in place (their data is dead until the reply
  /// installs it), so installing it copies nothing; else null.
  std::uint8_t* large_destination(const MsgHeader& h);
  void emit_range();
  /// Delivers a range message as its per-block messages, in order.
  void deliver_range(const MsgHeader& h, const std::uint8_t* payload);
  struct PendingRange {
    bool active = false;
    int to = -1;
    MsgHeader h;
    const std::uint8_t* payload = nullptr;
  };
  /// A range message's payload and blocks at most. A full range leaves at once (flushed), so
  /// that the receiver works on it while the sender serves the rest of a long run: one reply
  /// of a whole 800K get left the reader idle until the home had served every block.
  static constexpr std::uint32_t kMaxRangeBytes = 128 * 1024;
  static constexpr std::uint16_t kMaxRangeBlocks = 1024;
  PendingRange range_;
  int coalescing_ = 0;
  void check_watchdog(double now, double waited);
  double next_watchdog_scan_ = 0;  ///< MPI_Wtime of the next scan of outstanding requests
  double watchdog_load_ = 1;       ///< load_factor() at the last scan
  void sc_request(int home, std::uint64_t off, void* dst, const void* src, std::size_t len,
                  int* done);

  HitMemo read_memo_, write_memo_;
  std::uint64_t deliveries_ = 0;
  Config config_;
  Transport transport_;
  int rank_, size_;
  std::size_t block_bytes_;
  int block_shift_;
  std::uint8_t* segment_ = nullptr;
  std::uint64_t segment_bytes_;
  std::uint64_t next_offset_ = 0;
  Directory dir_;
  /// This host has more of the DSM's ranks than CPUs for them (host_oversubscribed): idle
  /// waits yield the core.
  bool yield_when_idle_;
  Stats stats_;
  /// The memory of the per-block bookkeeping below (map nodes, access lists, put payloads): a
  /// bulk transfer creates and drops a request, an access and often a busy entry per block, and
  /// malloc/free of them took a quarter of a home's time (perf, EM3D and bulk broadcasts). The
  /// pool keeps freed pieces for reuse. Declared before the containers that use it.
  std::pmr::unsynchronized_pool_resource pool_;
  std::pmr::unordered_map<std::uint64_t, Request> requests_{&pool_};  ///< by key(home, block)
  std::pmr::unordered_map<std::uint64_t, StoreOp> stores_{&pool_};    ///< by store id
  std::pmr::unordered_map<std::uint64_t, Busy> busy_{&pool_};  ///< home blocks in a busy state
  struct ScOp {
    void* dst;
    int* done;
  };
  std::pmr::unordered_map<std::uint64_t, ScOp> sc_ops_{&pool_};  ///< sc requests by id
  LockHome locks_;                                               ///< locks homed here
  std::unordered_map<int, bool> granted_;                        ///< locks this rank asked for
  std::uint64_t next_tag_ = 1;
  std::uint64_t polls_ = 0;         ///< progress engine rounds, the clock of the backoff
  int delivered_ = 0;               ///< messages the last poll delivered (waits yield when idle)
  std::vector<Deferred> deferred_;  ///< resends waiting out their backoff
  std::int64_t outstanding_ = 0;    ///< unfinished accesses, stores and sc operations
  std::uint64_t write_lock_ = ~std::uint64_t{0};  ///< the write-lock flag: key of the block
};

}  // namespace swcc
