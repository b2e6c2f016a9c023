// The global locks homed at this rank (lock_home.hpp): grants in the order the ranks asked.
#include "swcc/detail/lock_home.hpp"

namespace swcc {

bool LockHome::request(int id, int src) {
  Lock& l = locks_[id];
  if (!l.held) {
    l.held = true;
    return true;
  }
  l.queue.push_back(src);
  return false;
}

int LockHome::release(int id) {
  Lock& l = locks_[id];
  if (l.queue.empty()) {
    l.held = false;
    return -1;
  }
  const int next = l.queue.front();
  l.queue.erase(l.queue.begin());
  return next;
}

}  // namespace swcc
