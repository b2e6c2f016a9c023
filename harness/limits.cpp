// Cache-line ping-pong between two pinned threads and memcpy bandwidth per size.
#include "harness/limits.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "harness/measure.hpp"
#include "harness/stats.hpp"

namespace comops {
namespace {

using Clock = std::chrono::steady_clock;

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

struct alignas(64) Line {
  std::atomic<std::uint64_t> value{0};
};

}  // namespace

void measure_cacheline(const Pinning& pinning, MachineLimits& out) {
  if (pinning.cores() < 2) return;
  constexpr int kRounds = 20000, kReps = 5;
  Line line;
  std::vector<double> samples;
  int cpu_b = -1;
  std::thread partner([&] {
    cpu_b = pinning.bind_self_to_core(pinning.core_for(1, 2) < 0 ? 1 : pinning.core_for(1, 2));
    for (std::uint64_t i = 0; i < std::uint64_t{kRounds} * (kReps + 1); ++i) {
      while (line.value.load(std::memory_order_acquire) != 2 * i + 1) cpu_relax();
      line.value.store(2 * i + 2, std::memory_order_release);
    }
  });
  const int cpu_a =
      pinning.bind_self_to_core(pinning.core_for(0, 2) < 0 ? 0 : pinning.core_for(0, 2));
  std::uint64_t i = 0;
  for (int rep = 0; rep <= kReps; ++rep) {  // repetition 0 warms up
    const auto t0 = Clock::now();
    for (int k = 0; k < kRounds; ++k, ++i) {
      line.value.store(2 * i + 1, std::memory_order_release);
      while (line.value.load(std::memory_order_acquire) != 2 * i + 2) cpu_relax();
    }
    const auto t1 = Clock::now();
    if (rep > 0)
      samples.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / kRounds);
  }
  partner.join();
  pinning.unbind_self();
  out.cacheline_rtt_us = median(samples);
  out.core_a = cpu_a;
  out.core_b = cpu_b;
}

void measure_memcpy(const Pinning& pinning, const std::vector<std::size_t>& sizes,
                    MachineLimits& out) {
  if (sizes.empty()) return;
  const std::size_t largest = *std::max_element(sizes.begin(), sizes.end());
  const std::size_t alloc = (largest + 4095) / 4096 * 4096;
  pinning.bind_self_to_core(std::max(pinning.core_for(0, 1), 0));
  auto* src = static_cast<char*>(std::aligned_alloc(4096, alloc));
  auto* dst = static_cast<char*>(std::aligned_alloc(4096, alloc));
  if (src == nullptr || dst == nullptr) {
    std::free(src);
    std::free(dst);
    pinning.unbind_self();
    return;
  }
  std::memset(src, 1, alloc);
  std::memset(dst, 2, alloc);
  for (std::size_t bytes : sizes) {
    const int iters = iterations_for(bytes);
    std::vector<double> bw;
    for (int rep = 0; rep <= 3; ++rep) {  // repetition 0 warms up
      const auto t0 = Clock::now();
      for (int k = 0; k < iters; ++k) {
        std::memcpy(dst, src, bytes);
        asm volatile("" : : "r"(dst) : "memory");  // keep every copy
      }
      const auto t1 = Clock::now();
      const double s = std::chrono::duration<double>(t1 - t0).count() / iters;
      if (rep > 0) bw.push_back(static_cast<double>(bytes) / s / 1e9);
    }
    out.memcpy_GBps[bytes] = median(bw);
  }
  std::free(src);
  std::free(dst);
  pinning.unbind_self();
}

nlohmann::json to_json(const MachineLimits& l) {
  nlohmann::json memcpy = nlohmann::json::array();
  for (const auto& [bytes, bw] : l.memcpy_GBps)
    memcpy.push_back({{"bytes", bytes}, {"bw_GBps", bw}});
  nlohmann::json j = {{"memcpy", memcpy}};
  if (l.cacheline_rtt_us) {
    j["cacheline_rtt_us"] = *l.cacheline_rtt_us;
    j["cacheline_cores"] = {l.core_a, l.core_b};
  } else {
    j["cacheline_rtt_us"] = nullptr;
    j["cacheline_cores"] = nlohmann::json::array();
  }
  if (l.network)
    j["network"] = {{"ranks", {l.network->rank_a, l.network->rank_b}},
                    {"hosts", {l.network->host_a, l.network->host_b}},
                    {"rtt_8B_us", l.network->rtt_us},
                    {"bw_bytes", l.network->bw_bytes},
                    {"bw_GBps", l.network->bw_GBps}};
  return j;
}

MachineLimits limits_from_json(const nlohmann::json& j) {
  MachineLimits l;
  if (!j.at("cacheline_rtt_us").is_null()) {
    l.cacheline_rtt_us = j.at("cacheline_rtt_us").get<double>();
    l.core_a = j.at("cacheline_cores").at(0).get<int>();
    l.core_b = j.at("cacheline_cores").at(1).get<int>();
  }
  for (const auto& m : j.at("memcpy"))
    l.memcpy_GBps[m.at("bytes").get<std::size_t>()] = m.at("bw_GBps").get<double>();
  return l;
}

}  // namespace comops
