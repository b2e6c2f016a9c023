// Shared pieces of the shm ops: scheme names, reduction kernels.
#include "comops/shm/shm_op.hpp"

#include <algorithm>

namespace comops::shm {
namespace {

constexpr std::size_t kBlockElems = 1024;  // 8 KiB: the destination block stays in L1

#if defined(__x86_64__) && !defined(__SANITIZE_THREAD__)
#define COMOPS_SHM_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define COMOPS_SHM_CLONES
#endif

COMOPS_SHM_CLONES void max_into(Elem* __restrict dst, const Elem* __restrict src, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) dst[i] = dst[i] > src[i] ? dst[i] : src[i];
}

COMOPS_SHM_CLONES void sum_into(Elem* __restrict dst, const Elem* __restrict src, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) dst[i] += src[i];
}

}  // namespace

std::string_view scheme_name(Scheme scheme) {
  return scheme == Scheme::kStaged ? "staged" : "direct";
}

void combine_into(Elem* dst, const Elem* src, std::size_t n, OpKind op) {
  if (reduction_of(op) == Reduce::kMax)
    max_into(dst, src, n);
  else
    sum_into(dst, src, n);
}

void reduce_into(Elem* dst, const Elem* const* srcs, int nsrc, std::size_t n, OpKind op) {
  for (std::size_t lo = 0; lo < n; lo += kBlockElems) {
    const std::size_t len = std::min(kBlockElems, n - lo);
    copy_elems(dst + lo, srcs[0] + lo, len);
    for (int s = 1; s < nsrc; ++s) combine_into(dst + lo, srcs[s] + lo, len, op);
  }
}

}  // namespace comops::shm
