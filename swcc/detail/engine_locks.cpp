// Global locks: a lock is homed at rank id % size, whose LockHome grants it to one rank at a
// time and queues the others; lock and unlock wait by serving protocol messages.
#include <fmt/format.h>

#include "swcc/detail/engine.hpp"
#include "swcc/errors.hpp"

namespace swcc {

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
  if (h.type == MsgType::kLockReq) {
    if (locks_.request(id, h.src)) send(h.src, MsgType::kLockGrant, 0, nullptr, 0, h.tag);
    return;
  }
  send(h.src, MsgType::kUnlockAck, 0, nullptr, 0, h.tag);
  const int next = locks_.release(id);
  if (next >= 0) send(next, MsgType::kLockGrant, 0, nullptr, 0, h.tag);
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

}  // namespace swcc
