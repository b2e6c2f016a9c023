// matmul (--app=matmul) on every backend through measure_point, as comops runs it: at np = the
// world's ranks, for matrix orders that leave participants without rows (n < np), that split
// unevenly and that span many blocks; zero wrong elements (two calls back to back, each checked
// against the serial reference of its seed), the injected fault found, and the DSM counters: with
// caching far fewer messages than uncached (the reuse of B).
#include "comops/apps/matmul.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <vector>

#include "comops/mpi/backend.hpp"
#include "comops/shm/backend.hpp"
#include "comops/swcc/backend.hpp"
#include "harness/measure/measure.hpp"
#include "harness/ops/op_queries.hpp"
#include "tests/apps/every_backend.hpp"
#include "tests/mpi_world.hpp"

namespace comops {
namespace {

using test::app_quick;
using test::create;
using test::every_backend;
using test::world_rank;
using test::world_size;

Args matmul(int np, std::int64_t n) {
  Args a;
  a.op = OpKind::kMatmul;
  a.np = np;
  a.app = {{"n", n}};
  return a;
}

TEST(AppsMatmul, ExactOnEveryBackendAndFaultFound) {
  Pinning pinning(BindPolicy::kNone);
  const int np = world_size();
  for (auto& be : every_backend()) {
    // swcc-sc reads every remote element of B with a round trip: the orders stay small there.
    const bool sc = be->label() == "swcc-sc";
    std::vector<std::int64_t> orders{1, 2, 7, 24};
    if (!sc) orders.push_back(61);
    for (std::int64_t n : orders)
      for (bool fault : {false, true}) {
        const PointResult r = measure_point(*be, matmul(np, n), app_quick(fault), pinning);
        if (world_rank() != 0) continue;
        EXPECT_EQ(r.wrong, fault ? 1 : 0)
            << be->label() << " n=" << n << " np=" << np << (fault ? " with fault" : "");
        EXPECT_EQ(r.args.app, (AppParams{{"n", n}}));
      }
  }
}

// The counters of the timed calls: every swcc row carries them; with caching each remote block of
// B is fetched once per call and then hit, uncached every remote element is a request and a reply.
TEST(AppsMatmul, CachingSavesMessagesOverUncached) {
  Pinning pinning(BindPolicy::kNone);
  const int np = world_size();
  std::int64_t cached_messages = 0, sc_messages = 0, cached_hits = 0;
  for (auto& be : create(make_swcc_family(), {"--block-size=64", "--uncached"})) {
    const PointResult r = measure_point(*be, matmul(np, 24), app_quick(false), pinning);
    if (world_rank() != 0) continue;
    ASSERT_EQ(r.counters.size(), 8u);
    EXPECT_EQ(r.counters[0].first, "hits");
    EXPECT_EQ(r.counters[2].first, "messages");
    EXPECT_EQ(r.wrong, 0) << be->label();
    if (be->label() == "swcc-sc") {
      sc_messages = r.counters[2].second;
    } else {
      cached_messages = r.counters[2].second;
      cached_hits = r.counters[0].second;
    }
  }
  if (world_rank() != 0) return;
  // Uncached, each of the 2 timed calls reads rows x (n - rows) x n elements of B remotely on a
  // participant that owns `rows` rows: at least one message each.
  std::int64_t remote_reads = 0;  // per call, over all participants
  for (int r = 0; r < np; ++r) {
    const auto rows = static_cast<std::int64_t>(apps::matmul_rows(24, np, r).count);
    remote_reads += rows * (24 - rows) * 24;
  }
  EXPECT_GE(sc_messages, 2 * remote_reads);
  EXPECT_GT(cached_hits, 0);
  EXPECT_LT(cached_messages * 4, sc_messages);
}

}  // namespace
}  // namespace comops
