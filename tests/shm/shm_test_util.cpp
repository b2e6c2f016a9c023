// Helpers of the shm tests.
#include "tests/shm/shm_test_util.hpp"

#include <map>
#include <stdexcept>

#include "comops/shm/backend.hpp"

namespace comops::shm_test {

Backend& backend(const std::string& scheme) {
  static std::map<std::string, std::unique_ptr<Backend>> backends = [] {
    std::map<std::string, std::unique_ptr<Backend>> m;
    for (auto& b : make_shm_family()->create()) m[b->label()] = std::move(b);
    return m;
  }();
  auto it = backends.find("shm-" + scheme);
  if (it == backends.end()) throw std::logic_error("no backend shm-" + scheme);
  return *it->second;
}

Args make_args(OpKind op, int np, std::size_t bytes, int root) {
  Args a;
  a.op = op;
  a.np = np;
  a.bytes = bytes;
  a.count = bytes / kElemBytes;
  a.root = root;
  a.window = 5;  // stream-bw: 5 messages per window, each its own data (the others ignore it)
  return a;
}

}  // namespace comops::shm_test
