// The watchdog and what a failure report shows: a wait with no progress past the limit (times
// the machine's load) throws Timeout with the dump of requests, stores, busy blocks, directory.
#include <fmt/format.h>

#include "swcc/detail/engine.hpp"
#include "swcc/detail/load_factor.hpp"
#include "swcc/errors.hpp"

namespace swcc {

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
