// The swcc latency-by-state cases (the SWCC-Split-C paper's Figs 6-7): for each state a block can
// be in, how the ranks set it up, and the protocol messages one read or one write of a 4-byte
// value (int32) by rank 0 costs in it. One table, used by bench/swcc_state_latency (which times
// the accesses) and tests/swcc/state_cases_test.cpp (which asserts the counts and the values).
//
// Roles: rank 0 is the timer (it makes every timed access); rank 1 is the home of the remote
// cases' blocks and the partner of the home cases; rank 2 is the third party. Home cases' blocks
// live at rank 0, remote cases' blocks at rank 1. Each timed access touches a block of its own,
// freshly allocated and brought to the case's state by the setup steps (in batches: run_batch
// below), so no access sees the state another access left behind.
#pragma once

#include <mpi.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "swcc/swcc.hpp"

namespace swcc_state {

enum class Op : std::uint8_t { kRead, kWrite };
/// Where the accessed value lives: plain memory of rank 0, a shared block homed at rank 0, or a
/// shared block homed at rank 1.
enum class Where : std::uint8_t { kPrivate, kHome, kRemote };

inline constexpr int kTimer = 0;
inline constexpr int kPartner = 1;  ///< home of the remote cases
inline constexpr int kThird = 2;

/// One setup step: `rank` reads or writes the case's value (a blocking DSM access), on every
/// block of the batch, then all ranks pass a DSM barrier.
struct Step {
  int rank;
  Op op;
};

/// Rank 0's directory as the timed access finds it, checked for every block before the timing
/// (a count of messages cannot tell the states that send none apart).
enum class View : std::uint8_t {
  kPlain,             ///< private: no DSM
  kEmptyRow,          ///< home: no entry in rank 0's home row at all (the fast path)
  kNoEntry,           ///< no entry for the block (first touch; sc, which keeps none)
  kHomeOwned,         ///< home entry, Modified by rank 0 itself
  kHomeShared,        ///< home entry, Shared, with sharers
  kHomeModifiedAway,  ///< home entry, Modified by another rank
  kInvalid,           ///< cached entry, Invalid
  kShared,            ///< cached entry, Shared
  kModified,          ///< cached entry, Modified
};

struct StateCase {
  const char* name;   ///< the benchmark name's <case>: state/<case>/<read|write>/<B|sc>
  const char* state;  ///< what rank 0's access finds, in words
  Where where;
  View view;
  std::vector<Step> setup;
  /// Protocol messages (Stats::messages summed over the ranks; a rank's messages to itself are
  /// not counted) of one timed read and one timed write: index static_cast<int>(Op).
  int messages[2];
};

/// The cached (swcc-B) cases: the twelve states of issue 10, in the order of the issue.
const std::vector<StateCase>& swcc_cases();
/// The uncached (sc) cases: private, home, remote (sc has no block states).
const std::vector<StateCase>& sc_cases();
const char* op_name(Op op);
/// The rank that homes the case's blocks (rank 0 for private: its own memory).
int home_of(Where where);

/// The value the home puts in a fresh block before the setup; the value setup step `s` writes;
/// the value the timed write writes. All differ, so a stale copy cannot pass for a current one.
inline std::int32_t initial_value(std::size_t i) { return 1000 + static_cast<std::int32_t>(i); }
inline std::int32_t step_value(std::size_t i, std::size_t s) {
  return initial_value(i) + 100000 * static_cast<std::int32_t>(s + 1);
}
inline std::int32_t timed_value(std::size_t i) { return -initial_value(i); }
/// The value a timed read must return: the last setup write's, else the initial one.
inline std::int32_t expected_read(const StateCase& c, std::size_t i) {
  std::int32_t v = initial_value(i);
  for (std::size_t s = 0; s < c.setup.size(); ++s)
    if (c.setup[s].op == Op::kWrite) v = step_value(i, s);
  return v;
}

/// Whether rank 0's directory shows `view` for the block `block` of `home`.
template <std::size_t B>
bool view_holds(swcc::Dsm<B>& d, View view, int home, std::uint64_t block) {
  using swcc::State;
  swcc::Directory& dir = d.engine().dir();
  if (view == View::kPlain) return true;
  if (view == View::kEmptyRow) return dir.row(home).empty();
  const swcc::Entry* e = dir.row(home).find(block);
  switch (view) {
    case View::kNoEntry:
      return e == nullptr;
    case View::kHomeOwned:
      return e && e->state == State::kModified && e->owner == d.rank();
    case View::kHomeShared:
      return e && e->state == State::kShared && !dir.sharers(*e).empty();
    case View::kHomeModifiedAway:
      return e && e->state == State::kModified && e->owner != d.rank();
    case View::kInvalid:
      return e && e->state == State::kInvalid;
    case View::kShared:
      return e && e->state == State::kShared;
    case View::kModified:
      return e && e->state == State::kModified;
    default:
      return false;
  }
}

/// The int32 accessed in block i: the second of the block (byte 4), in every block size.
inline constexpr std::size_t kElement = 1;

/// What one batch did: the outcome of its verification and the protocol messages of its timed
/// accesses (summed over ranks; the same on every rank), and rank 0's time for them.
struct BatchResult {
  std::int64_t wrong = 0;        ///< values read or left behind that differ from the expected ones
  std::int64_t wrong_state = 0;  ///< blocks rank 0 did not find in the case's View
  std::int64_t messages = 0;     ///< during the timed accesses, all ranks
  double seconds = 0;            ///< rank 0: the timed accesses together; 0 elsewhere
};

/// Messages sent by all ranks so far (collective over `comm`; call it after a DSM barrier, when
/// no protocol message is in flight).
template <class D>
std::int64_t total_messages(D& d, MPI_Comm comm) {
  std::int64_t m = d.stats().messages;
  MPI_Allreduce(MPI_IN_PLACE, &m, 1, MPI_INT64_T, MPI_SUM, comm);
  return m;
}

/// Collective over the DSM's ranks (and `comm`, the same ranks, for the counts): allocates k
/// fresh blocks, brings each to case c's state, then rank 0 makes one `op` on each of them,
/// timed as a whole, while the other ranks serve in the DSM barrier; finally checks the values
/// (a read must return expected_read, a write must be what rank 1 reads back afterwards).
template <std::size_t B>
BatchResult run_batch(swcc::Dsm<B>& d, const StateCase& c, Op op, std::size_t k, MPI_Comm comm) {
  static_assert(B % sizeof(std::int32_t) == 0);
  constexpr std::size_t kPer = B / sizeof(std::int32_t);  // int32s per block
  const int me = d.rank();
  const int home = home_of(c.where);
  BatchResult r;
  std::vector<std::int32_t> priv;  // private: rank 0's plain memory, one value per B bytes
  swcc::SpreadArray<std::int32_t> a;
  auto at = [&](std::size_t i) {
    return a.on(home) + static_cast<std::ptrdiff_t>(i * kPer + kElement);
  };
  if (c.where == Where::kPrivate) {
    if (me == kTimer) {
      priv.assign(k * kPer, 0);
      for (std::size_t i = 0; i < k; ++i) priv[i * kPer + kElement] = initial_value(i);
    }
  } else {
    a = d.template alloc<std::int32_t>(k * kPer);
    // Fresh blocks nobody touched: the home's plain memory is the block.
    if (me == home)
      for (std::size_t i = 0; i < k; ++i) *d.local(at(i)) = initial_value(i);
    d.barrier();
    for (std::size_t s = 0; s < c.setup.size(); ++s) {
      const Step& st = c.setup[s];
      if (me == st.rank) {
        for (std::size_t i = 0; i < k; ++i) {
          if (st.op == Op::kWrite)
            d.write(at(i), step_value(i, s));
          else
            (void)d.read(at(i));
        }
      }
      d.barrier();
    }
  }
  d.barrier();
  if (me == kTimer)
    for (std::size_t i = 0; i < k; ++i)
      r.wrong_state += !view_holds(d, c.view, home, at(i).offset / B);
  const std::int64_t m0 = total_messages(d, comm);
  std::vector<std::int32_t> got(me == kTimer ? k : 0);
  if (me == kTimer) {
    const auto t0 = std::chrono::steady_clock::now();
    if (c.where == Where::kPrivate) {
      volatile std::int32_t* p = priv.data() + kElement;
      if (op == Op::kRead)
        for (std::size_t i = 0; i < k; ++i) got[i] = p[i * kPer];
      else
        for (std::size_t i = 0; i < k; ++i) p[i * kPer] = timed_value(i);
    } else if (op == Op::kRead) {
      for (std::size_t i = 0; i < k; ++i) got[i] = d.read(at(i));
    } else {
      for (std::size_t i = 0; i < k; ++i) d.write(at(i), timed_value(i));
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  d.barrier();  // the other ranks serve here while rank 0 times
  r.messages = total_messages(d, comm) - m0;
  // Verification, outside the timing.
  if (op == Op::kRead && me == kTimer) {
    for (std::size_t i = 0; i < k; ++i) r.wrong += got[i] != expected_read(c, i);
  } else if (op == Op::kWrite && c.where == Where::kPrivate && me == kTimer) {
    for (std::size_t i = 0; i < k; ++i) r.wrong += priv[i * kPer + kElement] != timed_value(i);
  } else if (op == Op::kWrite && c.where != Where::kPrivate) {
    // Rank 1 reads the value back through the DSM; but a read of rank 0's blocks by another
    // rank would put entries in rank 0's home row and end the fast path for the next batches:
    // there rank 0 reads it back itself.
    const int checker = c.view == View::kEmptyRow ? kTimer : kPartner;
    if (me == checker)
      for (std::size_t i = 0; i < k; ++i) r.wrong += d.read(at(i)) != timed_value(i);
  }
  d.barrier();
  std::int64_t sums[2] = {r.wrong, r.wrong_state};
  MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_INT64_T, MPI_SUM, comm);
  r.wrong = sums[0];
  r.wrong_state = sums[1];
  return r;
}

/// The DSM configuration of a case run: block size B (sc: uncached, 64-byte blocks, which sc
/// does not use) and a segment for `accesses` fresh blocks.
swcc::Config state_config(std::size_t block_bytes, bool sc, std::size_t accesses);

}  // namespace swcc_state
