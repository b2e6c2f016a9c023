// The global locks homed at this rank: whether each is held, and the ranks waiting for it, in
// the order they asked. Pure bookkeeping (no MPI); the engine sends the grants it returns.
#pragma once

#include <unordered_map>
#include <vector>

namespace swcc {

class LockHome {
 public:
  /// Rank `src` asks for lock `id`: true when the lock was free (src holds it now, grant it);
  /// else false, and src waits behind the ranks already waiting.
  bool request(int id, int src);
  /// The holder of lock `id` releases it: the first waiting rank, which holds it now (grant
  /// it); -1 when none waits (the lock is free).
  int release(int id);

 private:
  struct Lock {
    bool held = false;
    std::vector<int> queue;  ///< waiting ranks, first come first
  };
  std::unordered_map<int, Lock> locks_;  ///< by lock id
};

}  // namespace swcc
