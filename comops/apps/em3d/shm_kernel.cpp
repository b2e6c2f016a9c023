// EM3D on shared memory: threads update their own nodes of two shared arrays (see shm_kernel.hpp).
#include "comops/apps/em3d/shm_kernel.hpp"

#include <algorithm>
#include <utility>

namespace comops::em3d {

ShmKernel::ShmKernel(ShmValues& shared, const Params& p, std::uint64_t seed, int self, int np,
                     std::function<void()> barrier)
    : shared_(shared),
      p_(p),
      self_(self),
      part_(make_part(p, np, seed, self)),
      start_e_(initial_values(p, seed, Kind::kE, self)),
      start_h_(initial_values(p, seed, Kind::kH, self)),
      barrier_(std::move(barrier)) {}

void ShmKernel::reset() {
  const auto base = static_cast<std::ptrdiff_t>(self_ * p_.nodes);
  std::copy(start_e_.begin(), start_e_.end(), shared_.e.begin() + base);
  std::copy(start_h_.begin(), start_h_.end(), shared_.h.begin() + base);
  barrier_();
}

void ShmKernel::half_step(const Side& side, std::vector<std::uint64_t>& to,
                          const std::vector<std::uint64_t>& from) {
  const std::size_t nodes = p_.nodes, degree = p_.degree;
  std::uint64_t* mine = to.data() + self_ * nodes;
  const std::uint64_t* src = from.data();
  for (std::size_t i = 0; i < nodes; ++i)
    mine[i] = update(mine[i], &side.edges[i * degree], degree,
                     [&](const Edge& e) { return src[e.owner * nodes + e.index]; });
  barrier_();
}

void ShmKernel::iterate(std::size_t iters) {
  for (std::size_t it = 0; it < iters; ++it) {
    half_step(part_.e, shared_.e, shared_.h);
    half_step(part_.h, shared_.h, shared_.e);
  }
}

std::vector<std::uint64_t> ShmKernel::values(Kind k) const {
  const std::vector<std::uint64_t>& v = k == Kind::kE ? shared_.e : shared_.h;
  const auto base = v.begin() + static_cast<std::ptrdiff_t>(self_ * p_.nodes);
  return {base, base + static_cast<std::ptrdiff_t>(p_.nodes)};
}

}  // namespace comops::em3d
