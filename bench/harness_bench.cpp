// Google Benchmark micro-benchmarks of the harness work that runs outside the timed loops:
// filling inputs and checking outputs, so a reader sees what validation costs per point.
#include <benchmark/benchmark.h>

#include <vector>

#include "harness/ops/op_queries.hpp"

namespace {

comops::Args args_of(comops::OpKind op, std::size_t bytes, int np) {
  comops::Args a;
  a.op = op;
  a.np = np;
  a.bytes = bytes;
  a.count = bytes / comops::kElemBytes;
  return a;
}

void BM_FillAndCheckBroadcast(benchmark::State& state) {
  const auto a = args_of(comops::OpKind::kBroadcast, static_cast<std::size_t>(state.range(0)), 2);
  std::vector<comops::Elem> send(a.count), recv(a.count);
  comops::Buffers root{send.data(), a.count, nullptr, 0};
  comops::Buffers leaf{nullptr, 0, recv.data(), a.count};
  for (auto _ : state) {
    comops::fill_inputs(a, 0, 7, root);
    recv = send;
    benchmark::DoNotOptimize(comops::count_wrong(a, 1, 7, leaf));
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
}
BENCHMARK(BM_FillAndCheckBroadcast)->RangeMultiplier(8)->Range(8, 8 << 20);

}  // namespace
