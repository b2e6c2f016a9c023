// The NACK backoff: refused requests, stores and invalidations wait some polls of the progress
// engine, then are re-checked and resent.
#include "swcc/detail/engine.hpp"

namespace swcc {

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

}  // namespace swcc
