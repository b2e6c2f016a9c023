// EM3D on shared memory: threads update their own nodes in place, reading their neighbours from
// their owners' memory (see shm_kernel.hpp).
#include "comops/apps/em3d/shm_kernel.hpp"

#include <algorithm>
#include <utility>

namespace comops::em3d {
namespace {

void copy_values(const std::uint64_t* from, std::size_t n, std::uint64_t* to) {
  if (from != to) std::copy(from, from + n, to);
}

}  // namespace

ShmKernel::ShmKernel(const Params& p, std::uint64_t graph_seed, int self, ShmParts parts,
                     std::function<void()> barrier)
    : KernelRun(p),
      self_(self),
      part_(make_part(p, static_cast<int>(parts.e.size()), graph_seed, self)),
      parts_(std::move(parts)),
      barrier_(std::move(barrier)) {}

void ShmKernel::reset(const std::uint64_t* e0, const std::uint64_t* h0) {
  copy_values(e0, p_.nodes, parts_.e[self_]);
  copy_values(h0, p_.nodes, parts_.h[self_]);
  barrier_();
}

void ShmKernel::half_step(const Side& side, std::uint64_t* mine,
                          const std::vector<std::uint64_t*>& from) {
  const std::size_t degree = p_.degree;
  const std::uint64_t* const* src = from.data();
  for (std::size_t i = 0; i < p_.nodes; ++i)
    mine[i] = update(mine[i], &side.edges[i * degree], degree,
                     [&](const Edge& e) { return src[e.owner][e.index]; });
  barrier_();
}

void ShmKernel::iterate(std::size_t iters) {
  for (std::size_t it = 0; it < iters; ++it) {
    half_step(part_.e, parts_.e[self_], parts_.h);
    half_step(part_.h, parts_.h[self_], parts_.e);
  }
}

void ShmKernel::values(std::uint64_t* e, std::uint64_t* h) const {
  copy_values(parts_.e[self_], p_.nodes, e);
  copy_values(parts_.h[self_], p_.nodes, h);
}

}  // namespace comops::em3d
