// EM3D's shm kernel: 2, 3 and 4 threads on shared arrays, checked exactly against the serial
// reference after two runs back to back.
#include <gtest/gtest.h>

#include <barrier>
#include <thread>
#include <vector>

#include "comops/apps/em3d/graph.hpp"
#include "comops/apps/em3d/shm_kernel.hpp"

namespace comops::em3d {
namespace {

// Runs the kernel twice on np threads, then `extra` more iterations; returns the wrong values
// of all threads together.
std::size_t wrong_after_runs(const Params& p, int np, std::uint64_t seed, std::size_t extra) {
  ShmValues shared(p, np);
  std::barrier sync(np);
  std::vector<std::size_t> wrong(np, 0);
  const Values want = reference(p, np, seed);
  std::vector<std::thread> team;
  for (int t = 0; t < np; ++t)
    team.emplace_back([&, t] {
      ShmKernel k(shared, p, seed, t, np, [&] { sync.arrive_and_wait(); });
      k.run();
      k.run();
      k.iterate(extra);
      wrong[t] = count_wrong(want, p.nodes, t, k.values(Kind::kE), k.values(Kind::kH));
    });
  for (std::thread& t : team) t.join();
  std::size_t sum = 0;
  for (std::size_t w : wrong) sum += w;
  return sum;
}

TEST(Em3dShm, MatchesTheSerialReferenceExactly) {
  for (int np : {2, 3, 4})
    for (const Params& p : {Params{50, 4, 0, 3}, Params{50, 4, 10, 3}, Params{33, 5, 50, 2}}) {
      EXPECT_EQ(wrong_after_runs(p, np, 17, 0), 0u) << "np " << np << " remote " << p.remote_pct;
      // One iteration too many changes every value: the check sees it.
      EXPECT_EQ(wrong_after_runs(p, np, 17, 1), 2 * p.nodes * np) << "np " << np;
    }
}

}  // namespace
}  // namespace comops::em3d
