// One participant's failure ends the other participants' waits at once (SwccComm's abort
// channel), wherever they wait: the harness's barrier and allreduce, a DSM op's waits, the DSM
// allocator. Every test uses a backend of its own: a failed point leaves its communicator with
// unmatched collectives, so it is never used again (the driver ends the run after a failure).
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "comops/swcc/backend.hpp"
#include "comops/swcc/swcc_comm.hpp"
#include "harness/ops/op_binder.hpp"
#include "harness/ops/op_queries.hpp"
#include "swcc/errors.hpp"
#include "swcc/swcc.hpp"
#include "tests/mpi_world.hpp"

namespace comops {
namespace {

using test::world_rank;
using test::world_size;

// What spmd threw on this rank: its type ("failed" for ParticipantFailed, "error" for another
// exception, "" for none) and message.
struct Outcome {
  std::string kind, what;
};
Outcome run(int np, const std::function<void(Comm&)>& body) {
  auto backend = std::move(make_swcc_family()->create().at(0));
  try {
    backend->spmd(np, body);
  } catch (const swcc::ParticipantFailed& e) {
    return {"failed", e.what()};
  } catch (const std::exception& e) {
    return {"error", e.what()};
  }
  return {};
}

// Rank 1 throws "boom"; every other participant must come out with ParticipantFailed naming it.
void expect_rank1_failure(const Outcome& o, int np) {
  if (world_rank() == 1) {
    EXPECT_EQ(o.kind, "error");
    EXPECT_EQ(o.what.substr(0, o.what.find('\n')), "boom: the first line");
  } else if (world_rank() < np) {
    EXPECT_EQ(o.kind, "failed");
    EXPECT_EQ(o.what, fmt::format("participant 1 of {} failed: boom: the first line", np));
  }
}

TEST(SwccFailure, HarnessBarrierEndsWhenAnotherParticipantThrows) {
  const int np = world_size();
  expect_rank1_failure(run(np,
                           [](Comm& c) {
                             if (c.rank() == 1)
                               throw RuntimeError("boom: the first line\nand a second one");
                             c.barrier();
                           }),
                       np);
}

TEST(SwccFailure, HarnessAllreduceEndsWhenAnotherParticipantThrows) {
  const int np = world_size();
  expect_rank1_failure(run(np,
                           [](Comm& c) {
                             c.barrier();  // everyone in, then rank 1 fails
                             if (c.rank() == 1) throw RuntimeError("boom: the first line");
                             (void)c.allreduce(std::int64_t{1}, Reduce::kSum);
                           }),
                       np);
}

// A DSM op's own waits (its DSM barrier inside run()) end too.
TEST(SwccFailure, DsmOpWaitEndsWhenAnotherParticipantThrows) {
  const int np = world_size();
  Args a;
  a.op = OpKind::kBroadcast;
  a.np = np;
  a.bytes = 4096;
  a.count = a.bytes / kElemBytes;
  a.root = 0;
  // An op factory works on any swcc participant Comm: take it from another instance.
  const OpFactory factory = bind_op(*make_swcc_family()->create().at(0), OpKind::kBroadcast);
  const Outcome o = run(np, [&](Comm& c) {
    std::vector<Elem> s(send_count(a, c.rank())), r(recv_count(a, c.rank()));
    Buffers b{s.data(), s.size(), r.data(), r.size()};
    auto inst = factory(c, a, b);
    inst->run();
    if (c.rank() == 1) throw RuntimeError("boom: the first line");
    inst->run();  // the others wait in the DSM for rank 1
  });
  expect_rank1_failure(o, np);
}

// Setting up an op (the engine and its collective allocation) ends too when one participant
// fails inside it.
TEST(SwccFailure, DsmSetupEndsWhenAnotherParticipantThrows) {
  const int np = world_size();
  expect_rank1_failure(run(np,
                           [](Comm& c) {
                             auto& sc = swcc::swcc_comm_of(c);
                             ::swcc::Config cfg;
                             cfg.on_wait = [&sc] { sc.check(); };
                             ::swcc::Engine e(sc.handle(), cfg);
                             if (c.rank() == 1) throw RuntimeError("boom: the first line");
                             (void)e.alloc(64);
                           }),
                       np);
}

// The engine's construction (the duplication of the communicator) ends too when one
// participant fails before it.
TEST(SwccFailure, DsmEngineConstructionEndsWhenAnotherParticipantThrows) {
  const int np = world_size();
  expect_rank1_failure(run(np,
                           [](Comm& c) {
                             if (c.rank() == 1) throw RuntimeError("boom: the first line");
                             auto& sc = swcc::swcc_comm_of(c);
                             ::swcc::Config cfg;
                             cfg.on_wait = [&sc] { sc.check(); };
                             ::swcc::Engine e(sc.handle(), cfg);
                           }),
                       np);
}

TEST(SwccFailure, AFailureIsReportedOnceAndEveryoneCanGoOn) {
  // The failed point ends with rank 1's own error there and ParticipantFailed naming it
  // everywhere else; the next point, on a new backend, sees nothing of it and works normally.
  const int np = world_size();
  const Outcome first = run(np, [](Comm& c) {
    if (c.rank() == 1) throw RuntimeError("boom: the first line");
    c.barrier();
  });
  expect_rank1_failure(first, np);
  std::int64_t sum = -1;
  const Outcome second = run(np, [&sum](Comm& c) {
    sum = c.allreduce(std::int64_t{c.rank()}, Reduce::kSum);
    c.barrier();
  });
  EXPECT_EQ(second.kind, "");
  EXPECT_EQ(second.what, "");
  EXPECT_EQ(sum, std::int64_t{np} * (np - 1) / 2);
}

// A failed point's communicator is never used again, even by the same backend: its participants
// left their barrier (rank 1 never entered it) pending there. The next point on the same group
// gets a fresh communicator and its collectives match exactly (a reused one would pair the next
// barrier with the abandoned one).
TEST(SwccFailure, TheSameBackendGoesOnWithAFreshCommunicator) {
  const int np = world_size();
  auto backend = std::move(make_swcc_family()->create().at(0));
  std::string first;
  try {
    backend->spmd(np, [](Comm& c) {
      if (c.rank() == 1) throw RuntimeError("boom: the first line");
      c.barrier();
    });
  } catch (const std::exception& e) {
    first = e.what();
  }
  EXPECT_EQ(first, world_rank() == 1
                       ? "boom: the first line"
                       : fmt::format("participant 1 of {} failed: boom: the first line", np));
  std::vector<std::int64_t> sums;
  backend->spmd(np, [&sums](Comm& c) {
    for (int round = 0; round < 3; ++round) {
      c.barrier();
      sums.push_back(c.allreduce(std::int64_t{c.rank() + round}, Reduce::kSum));
    }
  });
  const std::int64_t base = std::int64_t{np} * (np - 1) / 2;
  EXPECT_EQ(sums, (std::vector<std::int64_t>{base, base + np, base + 2 * np}));
}

// The DSM library's own errors become comops's at the backend's boundary, with their text: a
// ConfigError a UsageError, any other swcc::Error (Timeout included) a RuntimeError; on the other
// participants the failure ends their waits as ParticipantFailed, as any other error does.
std::string comops_kind(const std::function<void()>& f) {
  try {
    f();
  } catch (const UsageError& e) {
    return std::string("usage: ") + e.what();
  } catch (const swcc::ParticipantFailed& e) {
    return std::string("failed: ") + e.what();
  } catch (const RuntimeError& e) {
    return std::string("runtime: ") + e.what();
  } catch (const std::exception& e) {
    return std::string("other: ") + e.what();
  }
  return "";
}

// Rank 1 throws `error` in a point of all ranks, the others wait in a barrier; returns what this
// rank's spmd threw, as comops_kind gives it.
template <class E>
std::string rank1_throws(const E& error) {
  auto backend = std::move(make_swcc_family()->create().at(0));
  return comops_kind([&] {
    backend->spmd(world_size(), [&](Comm& c) {
      if (c.rank() == 1) throw error;
      c.barrier();
    });
  });
}

TEST(SwccFailure, DsmConfigErrorBecomesAUsageError) {
  const std::string got = rank1_throws(::swcc::ConfigError("swcc: block size 3 not one of x"));
  if (world_rank() == 1)
    EXPECT_EQ(got, "usage: swcc: block size 3 not one of x");
  else
    EXPECT_EQ(got, fmt::format("failed: participant 1 of {} failed: swcc: block size 3 not one "
                               "of x",
                               world_size()));
}

TEST(SwccFailure, DsmErrorsBecomeRuntimeErrors) {
  for (const std::string what : {"swcc rank 1: watchdog: no progress", "swcc: cannot map"}) {
    const std::string got = what.find("watchdog") != std::string::npos
                                ? rank1_throws(::swcc::Timeout(what))
                                : rank1_throws(::swcc::Error(what));
    if (world_rank() == 1)
      EXPECT_EQ(got, "runtime: " + what);
    else
      EXPECT_EQ(got, fmt::format("failed: participant 1 of {} failed: {}", world_size(), what));
  }
}

// A pointer error of the DSM inside a point (rank 1 reads 64 MiB into rank 0's 1 MiB segment)
// is a run-time failure there (exit 3 from the driver) with the library's text, and ends the
// others' wait in the DSM's barrier.
TEST(SwccFailure, DsmAccessErrorInsideAPointBecomesARuntimeError) {
  auto backend = std::move(make_swcc_family()->create().at(0));
  const std::string got = comops_kind([&] {
    backend->spmd(world_size(), [&](Comm& c) {
      auto& sc = swcc::swcc_comm_of(c);
      ::swcc::Config cfg;
      cfg.segment_bytes = 1 << 20;
      cfg.on_wait = [&sc] { sc.check(); };
      ::swcc::Engine e(sc.handle(), cfg);
      ::swcc::Dsm<64> d(e);
      if (c.rank() == 1) (void)d.read(::swcc::toglobal<std::int64_t>(0, 64 << 20));
      d.barrier();
    });
  });
  const std::string what =
      "swcc rank 1: read of 8 bytes at (0, 67108864) is outside rank 0's segment of 1048576 "
      "bytes";
  if (world_rank() == 1)
    EXPECT_EQ(got, "runtime: " + what);
  else
    EXPECT_EQ(got, fmt::format("failed: participant 1 of {} failed: {}", world_size(), what));
}

}  // namespace
}  // namespace comops
