// The matmul application's shape, shared by its descriptor and every backend's version: C = A x B
// with n x n int64 matrices; the rows of A, B and C are spread over the participants in blocks
// (participant r owns rows [first, first + count)), and a participant's send buffer holds its
// rows of A, then its rows of B; its receive buffer its rows of C. Every participant reads all of
// B (the rows of the others remotely), so B is where caching pays: each element of B is used
// once per row of A a participant owns.
#pragma once

#include <cstddef>
#include <vector>

#include "comops/op.hpp"

namespace comops::apps {

/// The matrix order of a matmul point (its "n" parameter).
inline std::size_t matmul_n(const Args& args) { return static_cast<std::size_t>(args.param("n")); }

/// The rows participant `rank` of `np` owns: [first, first + count); the last one always has at
/// least one row.
struct RowBlock {
  std::size_t first = 0;
  std::size_t count = 0;
};
inline RowBlock matmul_rows(std::size_t n, int np, int rank) {
  const auto r = static_cast<std::size_t>(rank), p = static_cast<std::size_t>(np);
  const std::size_t first = n * r / p, next = n * (r + 1) / p;
  return {first, next - first};
}

/// owner[k]: the participant that owns row k.
inline std::vector<int> matmul_owners(std::size_t n, int np) {
  std::vector<int> owner(n);
  for (int r = 0; r < np; ++r) {
    const RowBlock b = matmul_rows(n, np, r);
    for (std::size_t k = b.first; k < b.first + b.count; ++k) owner[k] = r;
  }
  return owner;
}

/// C rows = A rows x B in i-k-j order (B read row by row, each row once per row of A): a is
/// rows x n, c is rows x n, b_row(k) returns row k of B as anything indexable by j.
template <class BRow>
void matmul_kernel(const Elem* a, std::size_t rows, std::size_t n, BRow&& b_row, Elem* c) {
  for (std::size_t i = 0; i < rows * n; ++i) c[i] = 0;
  for (std::size_t i = 0; i < rows; ++i) {
    Elem* ci = c + i * n;
    for (std::size_t k = 0; k < n; ++k) {
      const Elem aik = a[i * n + k];
      auto&& bk = b_row(k);
      for (std::size_t j = 0; j < n; ++j) ci[j] += aik * bk[j];
    }
  }
}

}  // namespace comops::apps
