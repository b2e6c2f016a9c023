// The matmul application's descriptor: its buffers (comops/apps/matmul.hpp), its inputs (small
// values from the seed's pattern, so no sum can overflow) and its exact result, a serial
// reference computed row by row from the same seed.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "comops/apps/matmul.hpp"
#include "harness/ops/app_descriptors.hpp"
#include "harness/ops/descriptor_parts.hpp"
#include "harness/ops/op_queries.hpp"

namespace comops {
namespace {

using apps::matmul_n;
using apps::matmul_rows;

constexpr Elem kPoison = -1;  // every element of C is a sum of products of values 0..15
constexpr std::int64_t kMaxN = 2048;

// The inputs, the same for every participant count: A(i, k) and B(k, j) in 0..15, so an element
// of C is at most n x 225.
Elem a_at(std::uint64_t seed, std::size_t n, std::size_t i, std::size_t k) {
  return pattern(seed, 0, i * n + k) & 15;
}
Elem b_at(std::uint64_t seed, std::size_t n, std::size_t k, std::size_t j) {
  return pattern(seed, 1, k * n + j) & 15;
}

std::size_t send_elems(const Args& a, int rank) {
  const std::size_t n = matmul_n(a);
  return 2 * matmul_rows(n, a.np, rank).count * n;  // its rows of A, then its rows of B
}
std::size_t recv_elems(const Args& a, int rank) {
  const std::size_t n = matmul_n(a);
  return matmul_rows(n, a.np, rank).count * n;  // its rows of C
}

void fill_inputs_of(const Args& a, int rank, std::uint64_t seed, Buffers& b) {
  const std::size_t n = matmul_n(a);
  const apps::RowBlock rows = matmul_rows(n, a.np, rank);
  Elem* a_rows = b.send;
  Elem* b_rows = b.send + rows.count * n;
  for (std::size_t i = 0; i < rows.count; ++i)
    for (std::size_t k = 0; k < n; ++k) {
      a_rows[i * n + k] = a_at(seed, n, rows.first + i, k);
      b_rows[i * n + k] = b_at(seed, n, rows.first + i, k);
    }
  std::fill(b.recv, b.recv + b.recv_count, kPoison);
}

// The serial reference, one row of C at a time: the check asks for the elements of a row in
// order, so each row is computed once (n^2 multiply-adds), from a copy of B made once per seed
// and n. Per thread: shm participants check at the same time.
struct Reference {
  std::uint64_t seed = 0;
  std::size_t n = 0;
  std::vector<Elem> b;  // n x n
  std::size_t row = SIZE_MAX;
  std::vector<Elem> c;  // row `row` of C
};

Elem reference(const Args& a, int rank, std::uint64_t seed, std::size_t idx) {
  thread_local Reference ref;
  const std::size_t n = matmul_n(a);
  if (ref.seed != seed || ref.n != n || ref.b.size() != n * n) {
    ref.seed = seed;
    ref.n = n;
    ref.b.resize(n * n);
    for (std::size_t k = 0; k < n; ++k)
      for (std::size_t j = 0; j < n; ++j) ref.b[k * n + j] = b_at(seed, n, k, j);
    ref.row = SIZE_MAX;
  }
  const std::size_t row = matmul_rows(n, a.np, rank).first + idx / n;
  if (ref.row != row) {
    ref.c.assign(n, 0);
    for (std::size_t k = 0; k < n; ++k) {
      const Elem aik = a_at(seed, n, row, k);
      for (std::size_t j = 0; j < n; ++j) ref.c[j] += aik * ref.b[k * n + j];
    }
    ref.row = row;
  }
  return ref.c[idx % n];
}

}  // namespace

OpDescriptor matmul_descriptor() {
  return {
      .kind = OpKind::kMatmul,
      .name = "matmul",
      .set = OpSet::kApp,
      .payload = Payload::kNone,
      .min_np = 1,
      .send_count = send_elems,
      .recv_count = recv_elems,
      .fill = fill_inputs_of,
      .expected = reference,
      .fault_rank = parts::last_participant,  // always owns a row
      .bw_factor = parts::no_bytes,
      .ceiling_shared_by = parts::one_sender_each,
      .definition =
          "time = max over participants of one C = A x B (n x n int64; rows of A, B "
          "and C in blocks over the participants, every participant reads all of B: "
          "the others' rows remotely); median of repetitions",
      .params = {
          {.name = "n",
           .help =
               "matmul: matrix orders n, comma-separated, 1 to 2048 (A, B and C are n x n int64)",
           .defaults = "64",
           .min = 1,
           .max = kMaxN}}};
}

}  // namespace comops
