// The progress engine: a poll delivers the messages that arrived to their handlers and runs the
// due resends; the waits (sync, barrier and every blocking call) poll until done.
#include <fmt/format.h>
#include <sched.h>

#include "swcc/detail/engine.hpp"
#include "swcc/errors.hpp"

namespace swcc {

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

}  // namespace swcc
