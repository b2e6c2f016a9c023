// Cache-line ping-pong between two pinned threads, memcpy bandwidth per size (one thread and all
// bound cores at once), each over repetitions, and their JSON form.
#include "harness/machine/limits.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <thread>

#include "harness/machine/cacheline.hpp"
#include "harness/util/stats.hpp"

namespace comops {
namespace {

using Clock = std::chrono::steady_clock;

// A barrier that spins (then yields) instead of sleeping: the copies of a repetition must start
// together, and a sleeping thread's wake-up takes milliseconds on a busy machine.
class SpinBarrier {
 public:
  explicit SpinBarrier(int n) : n_(n) {}
  void arrive_and_wait() {
    const std::uint64_t gen = generation_.value.load(std::memory_order_acquire);
    if (arrived_.value.fetch_add(1, std::memory_order_acq_rel) + 1 ==
        static_cast<std::uint64_t>(n_)) {
      arrived_.value.store(0, std::memory_order_relaxed);
      generation_.value.store(gen + 1, std::memory_order_release);
      return;
    }
    for (int spins = 0; generation_.value.load(std::memory_order_acquire) == gen; ++spins) {
      if (spins < 10000)
        cpu_relax();
      else
        std::this_thread::yield();  // more threads than free cores
    }
  }

 private:
  int n_;
  Line arrived_, generation_;
};

// A page-aligned source and destination of `bytes` each, touched by the calling thread (so
// that they lie in its NUMA node); empty when the allocation fails.
struct CopyBuffers {
  explicit CopyBuffers(std::size_t bytes) {
    const std::size_t alloc = std::max<std::size_t>((bytes + 4095) / 4096 * 4096, 4096);
    src.reset(static_cast<char*>(std::aligned_alloc(4096, alloc)));
    dst.reset(static_cast<char*>(std::aligned_alloc(4096, alloc)));
    if (!ok()) return;
    std::memset(src.get(), 1, alloc);
    std::memset(dst.get(), 2, alloc);
  }
  bool ok() const { return src != nullptr && dst != nullptr; }
  struct Free {
    void operator()(char* p) const { std::free(p); }
  };
  std::unique_ptr<char, Free> src, dst;
};

// Seconds for `copies` copies of `bytes`.
double time_copies(const CopyBuffers& b, std::size_t bytes, int copies) {
  char* dst = b.dst.get();
  const char* src = b.src.get();
  const auto t0 = Clock::now();
  for (int k = 0; k < copies; ++k) {
    std::memcpy(dst, src, bytes);
    asm volatile("" : : "r"(dst) : "memory");  // keep every copy
  }
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

std::size_t largest(const std::vector<std::size_t>& sizes) {
  return *std::max_element(sizes.begin(), sizes.end());
}

nlohmann::json range_json(const Range& r) { return {r.min, r.max}; }

Range range_from_json(const nlohmann::json& j) {
  if (!j.is_array() || j.size() != 2)
    throw nlohmann::json::other_error::create(501, "a range is [min, max]", &j);
  return {j.at(0).get<double>(), j.at(1).get<double>()};
}

}  // namespace

Spread spread_of(const std::vector<double>& samples) {
  return {median(samples), {min_of(samples), max_of(samples)}};
}

int limit_copies_for(std::size_t bytes) {
  constexpr std::size_t kBytesPerRep = 8u << 20;
  const std::size_t n = kBytesPerRep / std::max<std::size_t>(bytes, 1);
  return static_cast<int>(std::clamp<std::size_t>(n, 1, 10000));
}

int aggregate_threads(const Pinning& pinning, int max_np) {
  return std::max(1, std::min(pinning.cores(), max_np));
}

void measure_cacheline(const Pinning& pinning, MachineLimits& out) {
  if (pinning.cores() < 2) return;
  constexpr int kRounds = 10000;
  const int a = pinning.core_for(0, 2) < 0 ? 0 : pinning.core_for(0, 2);
  const int b = pinning.core_for(1, 2) < 0 ? 1 : pinning.core_for(1, 2);
  const RoundTrips trips = cacheline_round_trips(pinning, a, b, kRounds, kLimitRepetitions);
  const Spread s = spread_of(trips.us);
  out.cacheline_rtt_us = s.median;
  out.cacheline_rtt_range_us = s.range;
  out.core_a = trips.cpu_a;
  out.core_b = trips.cpu_b;
}

void measure_memcpy(const Pinning& pinning, const std::vector<std::size_t>& sizes,
                    MachineLimits& out) {
  if (sizes.empty()) return;
  pinning.bind_self_to_core(std::max(pinning.core_for(0, 1), 0));
  const CopyBuffers buffers(largest(sizes));
  if (buffers.ok()) {
    for (std::size_t bytes : sizes) {
      const int copies = limit_copies_for(bytes);
      std::vector<double> bw;
      for (int rep = 0; rep <= kLimitRepetitions; ++rep) {  // repetition 0 warms up
        const double s = time_copies(buffers, bytes, copies);
        if (rep > 0) bw.push_back(static_cast<double>(bytes) * copies / s / 1e9);
      }
      const Spread s = spread_of(bw);
      out.memcpy_GBps[bytes] = s.median;
      out.memcpy_range_GBps[bytes] = s.range;
    }
  }
  pinning.unbind_self();
}

void measure_aggregate_memcpy(const Pinning& pinning, const std::vector<std::size_t>& sizes,
                              int threads, MachineLimits& out) {
  if (sizes.empty() || threads < 2) return;
  const std::size_t n = static_cast<std::size_t>(threads);
  const std::size_t reps = kLimitRepetitions + 1;  // repetition 0 warms up
  // seconds[(size index x reps + rep) x threads + thread]; negative: that thread was unusable
  // (no buffers or no binding).
  std::vector<double> seconds(sizes.size() * reps * n, 0.0);
  SpinBarrier sync(threads);
  auto body = [&](std::size_t t) {
    const int core = pinning.core_for(static_cast<int>(t), threads);
    bool bound = true;
    try {  // no exception may leave a thread; an unbound thread makes the figure unusable
      pinning.bind_self_to_core(core < 0 ? static_cast<int>(t) : core);
    } catch (const std::exception&) {
      bound = false;
    }
    const CopyBuffers buffers(largest(sizes));
    const bool usable = bound && buffers.ok();
    for (std::size_t s = 0; s < sizes.size(); ++s) {
      const int copies = limit_copies_for(sizes[s]);
      for (std::size_t rep = 0; rep < reps; ++rep) {
        sync.arrive_and_wait();  // every thread starts the repetition together
        seconds[(s * reps + rep) * n + t] = usable ? time_copies(buffers, sizes[s], copies) : -1.0;
      }
    }
    pinning.unbind_self();
  };
  std::vector<std::thread> others;
  for (std::size_t t = 1; t < n; ++t) others.emplace_back(body, t);
  body(0);
  for (auto& t : others) t.join();
  for (std::size_t s = 0; s < sizes.size(); ++s) {
    const double moved = static_cast<double>(sizes[s]) * limit_copies_for(sizes[s]) * threads;
    std::vector<double> bw;
    for (std::size_t rep = 1; rep < reps; ++rep) {
      const auto first = seconds.begin() + static_cast<std::ptrdiff_t>((s * reps + rep) * n);
      if (std::any_of(first, first + threads, [](double v) { return v < 0; })) return;
      bw.push_back(moved / *std::max_element(first, first + threads) / 1e9);
    }
    const Spread spread = spread_of(bw);
    out.aggregate_memcpy[sizes[s]] = {threads, spread.median, spread.range};
  }
}

nlohmann::json to_json(const MachineLimits& l) {
  nlohmann::json memcpy = nlohmann::json::array();
  for (const auto& [bytes, bw] : l.memcpy_GBps) {
    const auto range = l.memcpy_range_GBps.find(bytes);
    memcpy.push_back(
        {{"bytes", bytes},
         {"bw_GBps", bw},
         {"bw_GBps_range",
          range_json(range == l.memcpy_range_GBps.end() ? Range{bw, bw} : range->second)}});
  }
  nlohmann::json aggregate = nlohmann::json::array();
  for (const auto& [bytes, a] : l.aggregate_memcpy)
    aggregate.push_back({{"bytes", bytes},
                         {"bw_GBps", a.bw_GBps},
                         {"bw_GBps_range", range_json(a.range_GBps)},
                         {"threads", a.threads}});
  nlohmann::json j = {{"memcpy", memcpy}, {"aggregate_memcpy", aggregate}};
  if (l.cacheline_rtt_us) {
    j["cacheline_rtt_us"] = *l.cacheline_rtt_us;
    j["cacheline_rtt_us_range"] = range_json(l.cacheline_rtt_range_us);
    j["cacheline_cores"] = {l.core_a, l.core_b};
  } else {
    j["cacheline_rtt_us"] = nullptr;
    j["cacheline_rtt_us_range"] = nullptr;
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
    l.cacheline_rtt_range_us = range_from_json(j.at("cacheline_rtt_us_range"));
    l.core_a = j.at("cacheline_cores").at(0).get<int>();
    l.core_b = j.at("cacheline_cores").at(1).get<int>();
  }
  for (const auto& m : j.at("memcpy")) {
    const auto bytes = m.at("bytes").get<std::size_t>();
    l.memcpy_GBps[bytes] = m.at("bw_GBps").get<double>();
    l.memcpy_range_GBps[bytes] = range_from_json(m.at("bw_GBps_range"));
  }
  for (const auto& a : j.at("aggregate_memcpy"))
    l.aggregate_memcpy[a.at("bytes").get<std::size_t>()] = {a.at("threads").get<int>(),
                                                            a.at("bw_GBps").get<double>(),
                                                            range_from_json(a.at("bw_GBps_range"))};
  return l;
}

}  // namespace comops
