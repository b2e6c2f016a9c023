// Test-only slowdown of one point (harness/measure/test_slowdown.hpp); compiled to a pass-through
// unless the build has COMOPS_TEST_SLOWDOWN=ON.
#include "harness/measure/test_slowdown.hpp"

#ifdef COMOPS_TEST_SLOWDOWN
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <sstream>
#include <vector>

#include "harness/ops/op_queries.hpp"
#include "harness/util/sizes.hpp"
#endif

namespace comops {

#ifdef COMOPS_TEST_SLOWDOWN
namespace {

constexpr const char* kVariable = "COMOPS_TEST_SLOWDOWN";
// The clock is read once every kCallsPerWait calls, so that reading it costs under 1 % of the
// smallest call (shm's 8-byte ping-pong, about 0.1 us); the wait for those calls comes at once.
constexpr long kCallsPerWait = 64;

using Clock = std::chrono::steady_clock;

struct Slowdown {
  std::string backend, op;
  std::size_t bytes = 0;
  double fraction = 0;
};

std::optional<Slowdown> parse_slowdown(const char* text) {
  if (text == nullptr || *text == '\0') return std::nullopt;
  std::vector<std::string> parts;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, ':');) parts.push_back(part);
  const auto bad = [&] {
    return RuntimeError(
        fmt::format("{}={}: expected BACKEND:OP:BYTES:FRACTION, e.g. "
                    "mpi:pingpong:8:0.05",
                    kVariable, text));
  };
  if (parts.size() != 4) throw bad();
  Slowdown s{parts[0], parts[1], parse_size(parts[2]), 0};
  char* end = nullptr;
  s.fraction = std::strtod(parts[3].c_str(), &end);
  if (end == parts[3].c_str() || *end != '\0' || !(s.fraction > 0 && s.fraction <= 10)) throw bad();
  return s;
}

// An op whose every kCallsPerWait-th call busy-waits `fraction` of the time since the last wait.
class SlowedOp : public OpInstance {
 public:
  SlowedOp(std::unique_ptr<OpInstance> inner, double fraction)
      : inner_(std::move(inner)), fraction_(fraction) {}
  void run() override {
    inner_->run();
    if (++calls_ % kCallsPerWait != 0) return;
    const auto now = Clock::now();
    const auto until =
        now + std::chrono::duration_cast<Clock::duration>((now - since_) * fraction_);
    while (Clock::now() < until) {
    }
    since_ = Clock::now();
  }
  Counters counters() const override { return inner_->counters(); }

 private:
  std::unique_ptr<OpInstance> inner_;
  double fraction_;
  long calls_ = 0;
  Clock::time_point since_ = Clock::now();
};

}  // namespace

OpFactory with_test_slowdown(OpFactory factory, const std::string& backend, const Args& args) {
  const std::optional<Slowdown> s = parse_slowdown(std::getenv(kVariable));
  if (!s || s->backend != backend || s->op != op_name(args.op) || s->bytes != args.bytes)
    return factory;
  const double fraction = s->fraction;
  return [factory, fraction, backend](Comm& comm, const Args& a, Buffers& bufs) {
    if (comm.rank() == 0)
      std::fprintf(stderr, "comops: note: test build: %s %s %zu B slowed by %g %%\n",
                   backend.c_str(), std::string(op_name(a.op)).c_str(), a.bytes, fraction * 100);
    return std::unique_ptr<OpInstance>(
        std::make_unique<SlowedOp>(factory(comm, a, bufs), fraction));
  };
}

#else

OpFactory with_test_slowdown(OpFactory factory, const std::string&, const Args&) { return factory; }

#endif

}  // namespace comops
