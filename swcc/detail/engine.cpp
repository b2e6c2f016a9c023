// The engine's life: construction (the checks of the configuration, the segment's mapping),
// the collective teardown, the statistics and the pointer checks of the miss paths.
#include "swcc/detail/engine.hpp"

#include <fmt/format.h>
#include <sys/mman.h>

#include <algorithm>
#include <bit>
#include <exception>

#include "swcc/detail/bounds.hpp"
#include "swcc/detail/placement.hpp"
#include "swcc/errors.hpp"

namespace swcc {

Engine::Engine(MPI_Comm comm, const Config& config)
    : config_(config),
      transport_(comm,
                 std::max({config.block_bytes, config.uncached ? kScBulkBytes : 64,
                           Transport::kPacketBytes - sizeof(MsgHeader)}),
                 config.fault, config.on_wait),
      rank_(transport_.rank()),
      size_(transport_.size()),
      block_bytes_(config.block_bytes),
      block_shift_(std::countr_zero(config.block_bytes)),
      segment_bytes_((config.segment_bytes + config.block_bytes - 1) / config.block_bytes *
                     config.block_bytes),
      dir_(transport_.rank(), transport_.size(), config.block_bytes),
      yield_when_idle_(host_oversubscribed(transport_.comm(), config.on_wait)) {
  if (!valid_block_bytes(block_bytes_))
    throw ConfigError(invalid_block_bytes_message(block_bytes_));
  if (config_.prefetch > kMaxPrefetch)
    throw ConfigError(
        fmt::format("swcc: prefetch depth {} (at most {})", config_.prefetch, kMaxPrefetch));
  if (size_ > SharerSet::kMaxRanks)  // Engine::key keeps the home rank in 16 bits
    throw Error(fmt::format("swcc: at most {} ranks, not {}", SharerSet::kMaxRanks, size_));
  void* p = mmap(nullptr, segment_bytes_, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED)
    throw Error(fmt::format("swcc: cannot map a {}-byte segment", segment_bytes_));
  segment_ = static_cast<std::uint8_t*>(p);
  if (cached() && !config_.fault.enabled)
    transport_.set_large_destination([this](const MsgHeader& h) { return large_destination(h); });
}

Engine::~Engine() {
  if (std::uncaught_exceptions() == 0) {
    try {
      barrier();
    } catch (...) {
    }
  }
  // A large send reads the segment in place: unmap it only once MPI is done with it (after a
  // failure a peer may never take it; the segment is then leaked rather than pulled away).
  if (transport_.wait_large(1.0)) munmap(segment_, segment_bytes_);
}

Stats Engine::stats() const {
  Stats s = stats_;
  s.messages = transport_.messages_sent();
  s.bytes = transport_.bytes_sent();
  s.packets = transport_.packets_sent();
  return s;
}

void Engine::check_pointer(const char* what, int home, std::uint64_t off,
                           std::uint64_t bytes) const {
  swcc::check_pointer(what, rank_, size_, home, off, bytes, segment_bytes_);
}

void Engine::check_single(const char* what, int home, std::uint64_t off, std::size_t len) const {
  check_pointer(what, home, off, len);
  if (cached()) check_one_block(what, rank_, home, off, len, block_bytes_);
}

}  // namespace swcc
