// What the shm op files share: schemes, flag lines with an inline payload, staging buffers, the
// op base class (with the team's published buffers) and the op table. Shared state (the structs an
// op builds with Team::make_shared) holds flags and ShmArrays only, never an address: a process
// team maps it at a different address in every process.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

#include "comops/op.hpp"
#include "comops/shm/shared_block.hpp"
#include "comops/shm/team.hpp"

namespace comops::shm {

/// How an op moves data between threads.
enum class Scheme {
  kStaged,  ///< the paper's: copy into a shared buffer, full barrier, copy out; critical section
  kDirect,  ///< one copy between the participants' own buffers, point-to-point sequence flags
};

std::string_view scheme_name(Scheme scheme);  ///< "staged" or "direct"

/// Elements that travel inside a flag's cache line (one line fetch carries flag and data).
inline constexpr std::size_t kInlineElems = 7;

/// From this size on, direct ping-pong and broadcast share each copy between the participants
/// (every byte is still copied once, from the sender's buffer into the receiver's).
inline constexpr std::size_t kSplitMinBytes = 16 << 10;

/// The first `share` of n elements, rounded up to a 128-byte boundary and capped at n: where a
/// shared copy splits between the threads.
inline std::size_t split_point(std::size_t n, std::size_t share) {
  constexpr std::size_t kAlignElems = 16;
  return std::min(n, (share + kAlignElems - 1) / kAlignElems * kAlignElems);
}

/// A sequence flag with a small payload in the same cache line; written by one thread.
struct alignas(kLineBytes) Line {
  std::atomic<std::uint64_t> seq{0};
  Elem data[kInlineElems] = {};
};

/// A sequence flag alone on its lines; written by one thread.
struct alignas(kLineBytes) SeqFlag {
  std::atomic<std::uint64_t> seq{0};
};

/// A page-aligned, zeroed array of count elements in a shared block (the staged scheme's buffer);
/// data() is null for count 0.
class SharedArray : public ShmArray<Elem> {
 public:
  SharedArray(Arena& arena, std::size_t count) : ShmArray<Elem>(arena, count, kPageBytes) {}
};

/// Spin-then-yield test-and-test-and-set lock: the staged reduction's critical section.
class SpinLock {
 public:
  void lock(const Team& team) {
    while (locked_.exchange(true, std::memory_order_acquire))
      team.wait([&] { return !locked_.load(std::memory_order_relaxed); });
  }
  void unlock() { locked_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> locked_{false};
};

/// Copies n elements (n may be 0 with null pointers).
inline void copy_elems(Elem* dst, const Elem* src, std::size_t n) {
  if (n != 0) std::memcpy(dst, src, n * kElemBytes);
}

/// dst[i] = max or sum of srcs[0..nsrc)[i] for i in [0, n); cache-blocked.
void reduce_into(Elem* dst, const Elem* const* srcs, int nsrc, std::size_t n, OpKind op);
/// dst[i] = max(dst[i], src[i]) or dst[i] += src[i].
void combine_into(Elem* dst, const Elem* src, std::size_t n, OpKind op);

/// Base of the shm ops: the participant's team, rank, the point and its buffers, an iteration
/// number, and (after publish) every participant's buffers in this participant's memory.
class ShmOp : public OpInstance {
 protected:
  ShmOp(Comm& comm, const Args& args, const Buffers& bufs)
      : team_(team_comm(comm).team()),
        rank_(comm.rank()),
        np_(comm.size()),
        args_(args),
        bufs_(bufs) {}

  /// Collective: publishes this participant's buffers and fills peers_ with everyone's.
  void publish() { peers_ = team_.exchange_peers(rank_, Peer{bufs_.send, bufs_.recv}); }
  std::uint64_t next() { return ++seq_; }  ///< 1, 2, ...: the same on every thread

  Team& team_;
  const int rank_;
  const int np_;
  const Args args_;
  const Buffers bufs_;
  std::vector<Peer> peers_;  ///< participant i's buffers (after publish)

 private:
  std::uint64_t seq_ = 0;
};

/// The ops shm implements, bound to scheme: every op under direct; under staged, all but the
/// one-sided ones and stream-bw. Generated from COMOPS_OPS (cmake/comops_ops.cmake).
OpTable op_table(Scheme scheme);

}  // namespace comops::shm
