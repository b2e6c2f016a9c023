// SCI-VM's first results on the swcc DSM (../shared/papers/sci-vm.txt, "Implementing SCI-VM and
// first results"): a sum of a large integer array and an integer matrix multiply C = A x B, each
// in the paper's three versions, and the overhead of each against the local one:
//   local        every rank holds all the data in its own memory (plain arrays)
//   unoptimised  the data in interleaved global memory (4096-byte pages, page k at rank k mod P),
//                uncached: every access to a page homed elsewhere is a request to its home (sc)
//   optimised    the same memory cached in 4096-byte blocks, with prefetch of the next d pages
//                on a read miss (swcc::Config::prefetch)
// plus, to separate caching from prefetch, "cached" (4096-byte blocks, no prefetch), and two
// rows beside the paper's:
//   view         the optimised version's memory read and written through the DSM's views
//                (Dsm::read_view, write_view): one coherence check a page, then plain loads and
//                stores, as a mapped page gives them to SCI-VM's programs
//   floor        np > 1: the pages of the share homed elsewhere moved by plain MPI_Get (C's by
//                MPI_Put), one a page, all in flight, one flush (bench/scivm_floor.hpp): the
//                least a DSM that moves each page once can add; its overhead is its time over
//                the local time, and its misses column the pages moved
// Every rank computes its share (sum: a contiguous range of elements; matmul: a contiguous range
// of rows of C, written into interleaved C), the unoptimised, cached and optimised versions
// element by element through Dsm::read, the paper's programs (kept to compare with the view). Each
// version's result is checked exactly against a serial computation (every rank's partial sum; all
// of C read back at rank 0); any mismatch makes the exit status 1. Every repetition of a DSM
// version runs on a new engine, so its caches start cold. A time is the slowest rank's time for its
// own share, from a common start (after a barrier) to the end of its kernel; the figure is the
// median of --reps of them. The kernels are compiled without auto-vectorisation (CMakeLists.txt),
// so that local and DSM versions run the same scalar loop and differ in the memory access alone.
//
// Run: mpiexec -n 2 build/bench/scivm_overhead [--sum-n=N] [--matmul-n=N] [--prefetch=D] [--reps=R]
//                                              [--json=FILE]
// Exit: 0 all checks passed, 1 a result was wrong, 2 bad options, 3 a DSM failure or FILE could
// not be written.
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/scivm_floor.hpp"
#include "harness/runtime/finalize.hpp"
#include "swcc/swcc.hpp"

namespace {

constexpr std::size_t kPage = 4096;  // SCI-VM's page; the DSM's block in every DSM version

struct Options {
  std::size_t sum_n = std::size_t{1} << 18;  // 1 MiB
  std::size_t matmul_n = 64;
  std::size_t prefetch = 8;
  int reps = 3;
  std::string json;      ///< --json: also write the table to this file
  bool corrupt = false;  ///< hidden, for the test: the optimised versions start from wrong data
};

enum class Version { kLocal, kUnoptimised, kCached, kOptimised, kView, kFloor };
const char* name(Version v) {
  switch (v) {
    case Version::kLocal:
      return "local";
    case Version::kUnoptimised:
      return "unoptimised (sc, interleaved)";
    case Version::kCached:
      return "cached, no prefetch";
    case Version::kView:
      return "view (cached, prefetch)";
    case Version::kFloor:
      return "floor (MPI_Get of remote pages)";
    default:
      return "optimised (cached, prefetch)";
  }
}
// What the paper reports for the version (its text gives no table or figure, and does not say
// which code had which overhead: 75 % bounds the three codes sum, matmul and volrend, 5.1 % is
// its best case).
const char* paper(Version v) {
  switch (v) {
    case Version::kLocal:
      return "baseline";
    case Version::kUnoptimised:
      return "several orders of magnitude slower";
    case Version::kCached:
    case Version::kView:
    case Version::kFloor:
      return "-";
    default:
      return "< 75 % (all codes), 5.1 % best case";
  }
}

// The data: small integers, the same on every rank.
std::int32_t sum_value(std::size_t i) {
  return static_cast<std::int32_t>((i * 2654435761u) % 2001) - 1000;
}
std::int32_t a_value(std::size_t i, std::size_t k) {
  return static_cast<std::int32_t>((i * 31 + k * 17) % 17) - 8;
}
std::int32_t b_value(std::size_t k, std::size_t j) {
  return static_cast<std::int32_t>((k * 13 + j * 7) % 15) - 7;
}

// This rank's share [lo, hi) of n items.
std::pair<std::size_t, std::size_t> share(std::size_t n, int rank, int ranks) {
  return {n * rank / ranks, n * (rank + 1) / ranks};
}

double slowest(double t) {
  MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return t;
}

struct Result {
  double seconds = 0;
  std::int64_t wrong = 0;                   // summed over ranks
  std::int64_t misses = 0, prefetches = 0;  // rank 0, last repetition
};

// ---- the kernels: the same loops over plain memory and over the DSM ----

// Sum of [lo, hi) through load(i).
template <class Load>
std::int64_t sum_kernel(std::size_t lo, std::size_t hi, Load&& load) {
  std::int64_t s = 0;
  for (std::size_t i = lo; i < hi; ++i) s += load(i);
  return s;
}

// Rows [lo, hi) of C = A x B (n x n, row-major), i-k-j order: the row of C accumulates in
// `row` and is handed to store(i, row).
template <class LoadA, class LoadB, class Store>
void matmul_kernel(std::size_t n, std::size_t lo, std::size_t hi, LoadA&& a, LoadB&& b,
                   Store&& store) {
  std::vector<std::int64_t> row(n);
  for (std::size_t i = lo; i < hi; ++i) {
    std::fill(row.begin(), row.end(), 0);
    for (std::size_t k = 0; k < n; ++k) {
      const std::int64_t aik = a(i * n + k);
      for (std::size_t j = 0; j < n; ++j) row[j] += aik * b(k * n + j);
    }
    store(i, row);
  }
}

// The same kernels a page at a time: view(x) is the view of the page holding element x (its
// first() and size() in elements), whose elements are read (written) with plain loads
// (stores). A view is taken again only when the next element lies outside it; between two
// takes no DSM call is made, so a view stays valid (swcc.hpp, "views").
template <class ViewOf>
std::int64_t sum_kernel_views(std::size_t lo, std::size_t hi, ViewOf&& view) {
  std::int64_t s = 0;
  for (std::size_t i = lo; i < hi;) {
    const auto v = view(i);
    const std::size_t end = std::min(hi, v.first() + v.size());
    const std::int32_t* page = v.span().data();
    for (const std::size_t first = v.first(); i < end; ++i) s += page[i - first];
  }
  return s;
}

// Copies elements [x, x + n) out of the views of view_of into dst.
template <class ViewOf, class T>
void copy_out_views(std::size_t x, std::size_t n, ViewOf&& view_of, T* dst) {
  for (std::size_t end = x + n; x < end;) {
    const auto v = view_of(x);
    const std::size_t stop = std::min(end, v.first() + v.size());
    for (const auto e : v.span().subspan(x - v.first(), stop - x)) *dst++ = e;
    x = stop;
  }
}

// matmul_kernel with B read through views: B is walked a view (page) at a time, in the row
// pieces that page holds (row k of B, columns [j, j + m)), row i of A copied out of its views
// first, and each row of C handed to store(i, row). The view's data, first and end are taken
// into locals once a page, so the loop over a row piece is the local version's loop.
template <class ViewA, class ViewB, class Store>
void matmul_kernel_views(std::size_t n, std::size_t lo, std::size_t hi, ViewA&& view_a,
                         ViewB&& view_b, Store&& store) {
  std::vector<std::int64_t> row(n);
  std::vector<std::int32_t> arow(n);
  for (std::size_t i = lo; i < hi; ++i) {
    copy_out_views(i * n, n, view_a, arow.data());
    std::fill(row.begin(), row.end(), 0);
    std::size_t k = 0, j = 0;  // the element x = k * n + j of B
    for (std::size_t x = 0; x < n * n;) {
      const auto v = view_b(x);
      const std::int32_t* page = v.span().data();  // page[x - first]: element x
      const std::size_t first = v.first(), end = std::min(n * n, first + v.size());
      while (x < end) {
        const std::size_t m = std::min(n - j, end - x);
        const std::int64_t aik = arow[k];
        const std::int32_t* bk = page + (x - first);
        std::int64_t* out = row.data() + j;
        for (std::size_t t = 0; t < m; ++t) out[t] += aik * bk[t];
        x += m;
        j += m;
        if (j == n) {
          j = 0;
          ++k;
        }
      }
    }
    store(i, row);
  }
}

// ---- one repetition of each version ----

Result sum_local(const Options& o, int me, int P, std::int64_t expected_part) {
  std::vector<std::int32_t> v(o.sum_n);
  for (std::size_t i = 0; i < o.sum_n; ++i) v[i] = sum_value(i);
  const auto [lo, hi] = share(o.sum_n, me, P);
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  const std::int64_t s = sum_kernel(lo, hi, [&](std::size_t i) { return v[i]; });
  const double t = MPI_Wtime() - t0;
  Result r;
  r.seconds = slowest(t);
  r.wrong = s != expected_part;
  return r;
}

Result matmul_local(const Options& o, int me, int P, const std::vector<std::int64_t>& expected) {
  const std::size_t n = o.matmul_n;
  std::vector<std::int32_t> a(n * n), b(n * n);
  std::vector<std::int64_t> c(n * n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < n; ++k) {
      a[i * n + k] = a_value(i, k);
      b[i * n + k] = b_value(i, k);
    }
  const auto [lo, hi] = share(n, me, P);
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  matmul_kernel(
      n, lo, hi, [&](std::size_t x) { return a[x]; }, [&](std::size_t x) { return b[x]; },
      [&](std::size_t i, const std::vector<std::int64_t>& row) {
        std::copy(row.begin(), row.end(), c.begin() + static_cast<std::ptrdiff_t>(i * n));
      });
  const double t = MPI_Wtime() - t0;
  Result r;
  r.seconds = slowest(t);
  for (std::size_t x = lo * n; x < hi * n; ++x) r.wrong += c[x] != expected[x];
  return r;
}

swcc::Config dsm_config(Version v, const Options& o, std::size_t segment) {
  swcc::Config c;
  c.block_bytes = kPage;
  c.uncached = v == Version::kUnoptimised;
  c.prefetch = v == Version::kOptimised || v == Version::kView ? o.prefetch : 0;
  c.segment_bytes = segment;
  return c;
}

Result sum_dsm(Version v, const Options& o, std::int64_t expected_part) {
  const std::size_t seg =
      swcc::InterleavedArray<std::int32_t, kPage>::part_bytes(o.sum_n, 1) + kPage;
  return swcc::with_dsm(MPI_COMM_WORLD, dsm_config(v, o, seg), [&](auto& d) {
    auto a = d.template alloc_interleaved<std::int32_t>(o.sum_n);
    for (std::size_t i = 0; i < o.sum_n; ++i)  // each home fills its own pages
      if (a[i].rank == d.rank()) *d.local(a[i]) = sum_value(i);
    if (o.corrupt && v >= Version::kOptimised && d.rank() == 0) *d.local(a[0]) += 1;
    const auto [lo, hi] = share(o.sum_n, d.rank(), d.size());
    d.barrier();
    const swcc::Stats before = d.stats();
    const double t0 = MPI_Wtime();
    const std::int64_t s =
        v == Version::kView
            ? sum_kernel_views(lo, hi, [&](std::size_t i) { return d.read_view(a, i); })
            : sum_kernel(lo, hi, [&](std::size_t i) { return d.read(a, i); });
    const double t = MPI_Wtime() - t0;
    d.barrier();  // serves the others' requests until they are done too
    Result r;
    r.seconds = slowest(t);
    r.wrong = s != expected_part;
    r.misses = d.stats().misses - before.misses;
    r.prefetches = d.stats().prefetches - before.prefetches;
    return r;
  });
}

Result matmul_dsm(Version v, const Options& o, const std::vector<std::int64_t>& expected) {
  const std::size_t n = o.matmul_n;
  const std::size_t seg = 2 * swcc::InterleavedArray<std::int32_t, kPage>::part_bytes(n * n, 1) +
                          swcc::InterleavedArray<std::int64_t, kPage>::part_bytes(n * n, 1) +
                          3 * kPage;
  return swcc::with_dsm(MPI_COMM_WORLD, dsm_config(v, o, seg), [&](auto& d) {
    auto a = d.template alloc_interleaved<std::int32_t>(n * n);
    auto b = d.template alloc_interleaved<std::int32_t>(n * n);
    auto c = d.template alloc_interleaved<std::int64_t>(n * n);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t k = 0; k < n; ++k) {
        if (a[i * n + k].rank == d.rank()) *d.local(a[i * n + k]) = a_value(i, k);
        if (b[i * n + k].rank == d.rank()) *d.local(b[i * n + k]) = b_value(i, k);
        if (c[i * n + k].rank == d.rank()) *d.local(c[i * n + k]) = 0;  // as local's c(n * n)
      }
    if (o.corrupt && v >= Version::kOptimised && d.rank() == 0) *d.local(b[0]) += 1;
    const auto [lo, hi] = share(n, d.rank(), d.size());
    d.barrier();
    const swcc::Stats before = d.stats();
    const double t0 = MPI_Wtime();
    if (v == Version::kView)
      matmul_kernel_views(
          n, lo, hi, [&](std::size_t x) { return d.read_view(a, x); },
          [&](std::size_t x) { return d.read_view(b, x); },
          [&](std::size_t i, const std::vector<std::int64_t>& row) {
            for (std::size_t j = 0; j < n;) {  // row i of C, a page's part at a time
              const auto w = d.write_view(c, i * n + j);
              const std::size_t at = i * n + j - w.first();
              const std::size_t m = std::min(n - j, w.size() - at);
              std::copy_n(row.begin() + static_cast<std::ptrdiff_t>(j), m, w.span().begin() + at);
              j += m;
            }
          });
    else
      matmul_kernel(
          n, lo, hi, [&](std::size_t x) { return d.read(a, x); },
          [&](std::size_t x) { return d.read(b, x); },
          [&](std::size_t i, const std::vector<std::int64_t>& row) {
            for (std::size_t j = 0; j < n; ++j) d.write(c, i * n + j, row[j]);
          });
    const double t = MPI_Wtime() - t0;  // the writes are blocking: done here
    d.barrier();
    Result r;
    r.seconds = slowest(t);
    r.misses = d.stats().misses - before.misses;
    r.prefetches = d.stats().prefetches - before.prefetches;
    if (d.rank() == 0)  // all of C, read back through the DSM
      for (std::size_t x = 0; x < n * n; ++x) r.wrong += d.read(c, x) != expected[x];
    d.barrier();
    return r;
  });
}

// ---- the floor: the remote pages by plain MPI one-sided transfers (bench/scivm_floor.hpp) ----

template <class T>
using Pages = swcc::InterleavedArray<T, kPage>;

// The pages of elements [lo, hi) of an array of `count` elements over P ranks (offsets from 0)
// that are homed elsewhere than at `me`; ks gets their block numbers.
template <class T>
std::vector<scivm::Page> remote_pages(std::size_t count, int P, int me, std::size_t lo,
                                      std::size_t hi, std::vector<std::size_t>* ks = nullptr) {
  const Pages<T> a(0, count, P);
  std::vector<scivm::Page> pages;
  if (lo >= hi) return pages;
  for (std::size_t k = a.block_of(lo); k <= a.block_of(hi - 1); ++k) {
    const swcc::global_ptr<T> b = a.block(k);
    if (b.rank == me) continue;
    pages.push_back({b.rank, b.offset});
    if (ks) ks->push_back(k);
  }
  return pages;
}

// A window holding this rank's part of an interleaved array of `count` elements, value(x) at
// element x.
template <class T, class Value>
std::unique_ptr<scivm::PageWindow> window_of(std::size_t count, int P, int me, Value&& value) {
  const Pages<T> a(0, count, P);
  auto w = std::make_unique<scivm::PageWindow>(Pages<T>::part_bytes(count, P), MPI_COMM_WORLD);
  for (std::size_t x = 0; x < count; ++x)
    if (a[x].rank == me) {
      const T v = value(x);
      std::memcpy(w->part() + a[x].offset, &v, sizeof(T));
    }
  return w;
}

// Mismatches of fetched pages (their blocks ks) against value(x).
template <class T, class Value>
std::int64_t check_pages(const std::vector<std::uint8_t>& got, const std::vector<std::size_t>& ks,
                         std::size_t count, Value&& value) {
  std::int64_t wrong = 0;
  for (std::size_t p = 0; p < ks.size(); ++p)
    for (std::size_t j = 0; j < Pages<T>::kPerBlock; ++j) {
      const std::size_t x = ks[p] * Pages<T>::kPerBlock + j;
      if (x >= count) break;
      T v;
      std::memcpy(&v, got.data() + p * kPage + j * sizeof(T), sizeof(T));
      wrong += v != value(x);
    }
  return wrong;
}

Result sum_floor(const Options& o, int me, int P) {
  auto w = window_of<std::int32_t>(o.sum_n, P, me, sum_value);
  const auto [lo, hi] = share(o.sum_n, me, P);
  std::vector<std::size_t> ks;
  const auto pages = remote_pages<std::int32_t>(o.sum_n, P, me, lo, hi, &ks);
  std::vector<std::uint8_t> got(pages.size() * kPage);
  w->open();
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  w->get(pages, kPage, got.data());
  w->complete();
  const double t = MPI_Wtime() - t0;
  w->close();
  Result r;
  r.seconds = slowest(t);
  r.wrong = check_pages<std::int32_t>(got, ks, o.sum_n, sum_value);
  r.misses = static_cast<std::int64_t>(pages.size());
  MPI_Bcast(&r.misses, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);  // rank 0's, as for the others
  return r;
}

// Rows [lo, hi) of A, all of B by MPI_Get; rows [lo, hi) of C by MPI_Put.
Result matmul_floor(const Options& o, int me, int P, const std::vector<std::int64_t>& expected) {
  const std::size_t n = o.matmul_n, nn = n * n;
  const auto a_at = [n](std::size_t x) { return a_value(x / n, x % n); };
  const auto b_at = [n](std::size_t x) { return b_value(x / n, x % n); };
  auto wa = window_of<std::int32_t>(nn, P, me, a_at);
  auto wb = window_of<std::int32_t>(nn, P, me, b_at);
  auto wc = window_of<std::int64_t>(nn, P, me, [](std::size_t) { return std::int64_t{0}; });
  const auto [lo, hi] = share(n, me, P);
  std::vector<std::size_t> ka, kb, kc;
  const auto pa = remote_pages<std::int32_t>(nn, P, me, lo * n, hi * n, &ka);
  const auto pb = remote_pages<std::int32_t>(nn, P, me, 0, nn, &kb);
  const auto pc = remote_pages<std::int64_t>(nn, P, me, lo * n, hi * n, &kc);
  std::vector<std::uint8_t> ga(pa.size() * kPage), gb(pb.size() * kPage), c(pc.size() * kPage);
  for (std::size_t p = 0; p < kc.size(); ++p)  // C's pages as the kernel leaves them
    for (std::size_t j = 0; j < Pages<std::int64_t>::kPerBlock; ++j) {
      const std::size_t x = kc[p] * Pages<std::int64_t>::kPerBlock + j;
      if (x < nn) std::memcpy(c.data() + p * kPage + j * 8, &expected[x], 8);
    }
  wa->open();
  wb->open();
  wc->open();
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  wa->get(pa, kPage, ga.data());
  wb->get(pb, kPage, gb.data());
  wc->put(pc, kPage, c.data());
  wa->complete();
  wb->complete();
  wc->complete();
  const double t = MPI_Wtime() - t0;
  wa->close();
  wb->close();
  wc->close();
  Result r;
  r.seconds = slowest(t);
  r.wrong =
      check_pages<std::int32_t>(ga, ka, nn, a_at) + check_pages<std::int32_t>(gb, kb, nn, b_at);
  r.misses = static_cast<std::int64_t>(pa.size() + pb.size() + pc.size());
  MPI_Bcast(&r.misses, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
  return r;
}

// ---- driver ----

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Row {
  const char* kernel;
  Version version;
  Result result;
  double overhead_pct = 0;  ///< against the same kernel's local version (set_overheads)
};

// Each row's overhead against the local row of its kernel, which comes first.
void set_overheads(std::vector<Row>& rows) {
  double local = 0;
  for (Row& r : rows) {
    if (r.version == Version::kLocal) local = r.result.seconds;
    // The floor's time is an overhead in itself: what moving the pages adds at least.
    const double extra = r.version == Version::kFloor ? r.result.seconds : r.result.seconds - local;
    r.overhead_pct = extra / local * 100;
  }
}

template <class Run>
Row measure(const char* kernel, Version v, int reps, Run&& run) {
  std::vector<double> times;
  Result last;
  std::int64_t wrong = 0;
  for (int rep = 0; rep < reps; ++rep) {
    last = run(v);
    times.push_back(last.seconds);
    wrong += last.wrong;
  }
  MPI_Allreduce(MPI_IN_PLACE, &wrong, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  last.seconds = median(times);
  last.wrong = wrong;
  return {kernel, v, last};
}

// The table as JSON (--json): the parameters and one object per line of the table.
bool write_json(const Options& o, int P, const std::vector<Row>& rows) {
  nlohmann::json out = {{"np", P},
                        {"sum_n", o.sum_n},
                        {"matmul_n", o.matmul_n},
                        {"page_bytes", kPage},
                        {"prefetch", o.prefetch},
                        {"reps", o.reps},
                        {"rows", nlohmann::json::array()}};
  for (const Row& r : rows) {
    out["rows"].push_back({{"kernel", r.kernel},
                           {"version", name(r.version)},
                           {"time_ms", r.result.seconds * 1e3},
                           {"overhead_pct", r.overhead_pct},
                           {"misses", r.result.misses},
                           {"prefetches", r.result.prefetches},
                           {"check", r.result.wrong ? "FAILED" : "passed"},
                           {"paper", paper(r.version)}});
  }
  std::ofstream f(o.json);
  f << out.dump(2) << "\n";
  f.close();
  if (!f) std::fprintf(stderr, "scivm_overhead: error: cannot write %s\n", o.json.c_str());
  return static_cast<bool>(f);
}

int run(const Options& o) {
  int me = 0, P = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &P);

  // Serial references.
  std::int64_t sum_part = 0;
  {
    const auto [lo, hi] = share(o.sum_n, me, P);
    for (std::size_t i = lo; i < hi; ++i) sum_part += sum_value(i);
  }
  const std::size_t n = o.matmul_n;
  std::vector<std::int64_t> c(n * n, 0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < n; ++k)
      for (std::size_t j = 0; j < n; ++j)
        c[i * n + j] += std::int64_t{a_value(i, k)} * b_value(k, j);

  std::vector<Row> rows;
  const Version all[] = {Version::kLocal,     Version::kUnoptimised, Version::kCached,
                         Version::kOptimised, Version::kView,        Version::kFloor};
  for (Version v : all) {
    if (v == Version::kFloor && P == 1) continue;  // no remote page
    rows.push_back(measure("sum", v, o.reps, [&](Version v) {
      if (v == Version::kLocal) return sum_local(o, me, P, sum_part);
      if (v == Version::kFloor) return sum_floor(o, me, P);
      return sum_dsm(v, o, sum_part);
    }));
  }
  for (Version v : all) {
    if (v == Version::kFloor && P == 1) continue;
    rows.push_back(measure("matmul", v, o.reps, [&](Version v) {
      if (v == Version::kLocal) return matmul_local(o, me, P, c);
      if (v == Version::kFloor) return matmul_floor(o, me, P, c);
      return matmul_dsm(v, o, c);
    }));
  }

  set_overheads(rows);
  bool ok = true;
  for (const Row& r : rows) ok = ok && r.result.wrong == 0;
  if (me == 0) {
    std::printf(
        "# scivm_overhead: np=%d sum n=%zu int32, matmul n=%zu (int32 A, B; int64 C), "
        "pages %zu B, prefetch d=%zu, median of %d\n",
        P, o.sum_n, o.matmul_n, kPage, o.prefetch, o.reps);
    std::printf("# paper: sci-vm.txt, \"Implementing SCI-VM and first results\" (text only)\n");
    std::printf("%-7s %-30s %12s %12s %9s %11s %-7s %s\n", "kernel", "version", "time_ms",
                "overhead_%", "misses", "prefetches", "check", "paper");
    for (const Row& r : rows) {
      std::printf("%-7s %-30s %12.3f %12.1f %9lld %11lld %-7s %s\n", r.kernel, name(r.version),
                  r.result.seconds * 1e3, r.overhead_pct, static_cast<long long>(r.result.misses),
                  static_cast<long long>(r.result.prefetches), r.result.wrong ? "FAILED" : "passed",
                  paper(r.version));
    }
    std::printf(
        "# misses, prefetches: rank 0's, one repetition (floor: rank 0's pages moved); the "
        "floor's overhead is its time over local\n");
    if (!ok) std::fprintf(stderr, "scivm_overhead: error: a result differs from the serial one\n");
    if (!o.json.empty() && !write_json(o, P, rows)) return 3;
  }
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  Options o;
  CLI::App app{"SCI-VM's sum and matmul overhead against local memory on the swcc DSM"};
  app.add_option("--sum-n", o.sum_n, "int32 elements summed")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 28));
  app.add_option("--matmul-n", o.matmul_n, "matrix order")
      ->check(CLI::Range(std::size_t{1}, std::size_t{2048}));
  app.add_option("--prefetch", o.prefetch, "prefetch depth d of the optimised version")
      ->check(CLI::Range(std::size_t{0}, swcc::kMaxPrefetch));
  app.add_option("--reps", o.reps, "repetitions per version (median)")->check(CLI::Range(1, 1000));
  app.add_option("--json", o.json, "also write the table to this JSON file");
  app.add_flag("--test-corrupt", o.corrupt, "(test) wrong data in the optimised versions")
      ->group("");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    if (me == 0) std::printf("%s", app.help().c_str());
    comops::finalize_mpi();
    return 0;
  } catch (const CLI::ParseError& e) {
    if (me == 0) std::fprintf(stderr, "scivm_overhead: error: %s\n", e.what());
    comops::finalize_mpi();
    return 2;
  }
  std::error_code ec;
  if (!o.json.empty() && std::filesystem::exists(o.json, ec) &&
      !std::filesystem::is_regular_file(o.json, ec)) {
    if (me == 0)
      std::fprintf(stderr, "scivm_overhead: error: --json %s is not a regular file\n",
                   o.json.c_str());
    comops::finalize_mpi();
    return 2;
  }
  int rc = 0;
  try {
    rc = run(o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "scivm_overhead: error: rank %d: %s\n", me, e.what());
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  comops::finalize_mpi();
  return rc;
}
