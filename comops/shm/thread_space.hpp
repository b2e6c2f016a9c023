// The Space of a thread team: blocks from the process's heap, addresses named as they are.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>

#include "comops/shm/shared_block.hpp"

namespace comops::shm {

class ThreadSpace final : public Space {
 public:
  bool one_process() const override { return true; }

  /// Page aligned and zeroed; throws std::bad_alloc.
  std::shared_ptr<void> allocate(std::size_t bytes) override {
    const std::size_t rounded =
        (std::max<std::size_t>(bytes, 1) + kPageBytes - 1) / kPageBytes * kPageBytes;
    void* p = std::aligned_alloc(kPageBytes, rounded);
    if (p == nullptr) throw std::bad_alloc();
    std::memset(p, 0, rounded);
    return std::shared_ptr<void>(p, [](void* q) { std::free(q); });
  }

  SharedRef ref(const void* p) const override {
    return SharedRef{0, static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(p))};
  }
  void* at(const SharedRef& r) const override {
    return reinterpret_cast<void*>(static_cast<std::uintptr_t>(r.offset));
  }
};

}  // namespace comops::shm
