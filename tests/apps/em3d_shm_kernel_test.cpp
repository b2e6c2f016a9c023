// EM3D's shm kernel on 2, 3 and 4 std::threads, values in shared arrays (copied in and out) and
// in each thread's own buffer (in place, read by the others), checked exactly against the serial
// reference after two runs back to back with different seeds.
#include <gtest/gtest.h>

#include <barrier>
#include <thread>
#include <vector>

#include "comops/apps/em3d/graph.hpp"
#include "comops/apps/em3d/shm_kernel.hpp"

namespace comops::em3d {
namespace {

// Runs seed 17 then seed 18 on np threads, then `extra` more iterations; returns the wrong values
// of all threads together, of the first and of the second run (the first checked after the
// second ran). in_place: each thread's values live in its own output buffer.
std::pair<std::size_t, std::size_t> wrong_after_runs(const Params& p, int np, bool in_place,
                                                     std::size_t extra) {
  const std::size_t n = p.nodes;
  std::vector<std::uint64_t> shared_e(n * np), shared_h(n * np);
  // Each thread's outputs of both runs: E then H.
  std::vector<std::vector<std::uint64_t>> out1(np, std::vector<std::uint64_t>(2 * n)), out2 = out1;
  ShmParts first, second;
  for (int t = 0; t < np; ++t) {
    first.e.push_back(in_place ? out1[t].data() : shared_e.data() + t * n);
    first.h.push_back(in_place ? out1[t].data() + n : shared_h.data() + t * n);
    second.e.push_back(in_place ? out2[t].data() : shared_e.data() + t * n);
    second.h.push_back(in_place ? out2[t].data() + n : shared_h.data() + t * n);
  }
  std::barrier sync(np);
  std::vector<std::thread> team;
  for (int t = 0; t < np; ++t)
    team.emplace_back([&, t] {
      auto barrier = [&] { sync.arrive_and_wait(); };
      const auto e0 = initial_values(p, 17, Kind::kE, t), h0 = initial_values(p, 17, Kind::kH, t);
      const auto e1 = initial_values(p, 18, Kind::kE, t), h1 = initial_values(p, 18, Kind::kH, t);
      ShmKernel k1(p, kGraphSeed, t, first, barrier), k2(p, kGraphSeed, t, second, barrier);
      k1.run(e0.data(), h0.data(), out1[t].data(), out1[t].data() + n);
      k2.run(e1.data(), h1.data(), out2[t].data(), out2[t].data() + n);
      k2.iterate(extra);
      k2.values(out2[t].data(), out2[t].data() + n);
    });
  for (std::thread& t : team) t.join();
  const Values want1 = reference(p, np, kGraphSeed, 17), want2 = reference(p, np, kGraphSeed, 18);
  std::size_t w1 = 0, w2 = 0;
  for (int t = 0; t < np; ++t) {
    const auto mid1 = out1[t].begin() + static_cast<std::ptrdiff_t>(n);
    const auto mid2 = out2[t].begin() + static_cast<std::ptrdiff_t>(n);
    w1 += count_wrong(want1, n, t, {out1[t].begin(), mid1}, {mid1, out1[t].end()});
    w2 += count_wrong(want2, n, t, {out2[t].begin(), mid2}, {mid2, out2[t].end()});
  }
  return {w1, w2};
}

TEST(Em3dShm, MatchesTheSerialReferenceExactly) {
  for (bool in_place : {false, true})
    for (int np : {2, 3, 4})
      for (const Params& p : {Params{50, 4, 0, 3}, Params{50, 4, 10, 3}, Params{33, 5, 50, 2}}) {
        EXPECT_EQ(wrong_after_runs(p, np, in_place, 0), std::pair(std::size_t{0}, std::size_t{0}))
            << "np " << np << " remote " << p.remote_pct << " in place " << in_place;
        // One iteration too many changes every value of the second run: the check sees it.
        EXPECT_EQ(wrong_after_runs(p, np, in_place, 1).second, 2 * p.nodes * np) << "np " << np;
      }
}

}  // namespace
}  // namespace comops::em3d
