// Google Benchmark: round trip of the shm backend's ping-pong between two OpenMP threads, per
// scheme and message size (one iteration = one round trip; bytes_per_second counts 2 x size).
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

#include "comops/shm/backend.hpp"
#include "harness/ops/op_binder.hpp"

namespace {

comops::Backend& shm_backend(int index) {
  static std::vector<std::unique_ptr<comops::Backend>> backends =
      comops::make_shm_family()->create();  // [0] shm-staged, [1] shm-direct
  return *backends.at(static_cast<std::size_t>(index));
}

void BM_ShmPingpong(benchmark::State& state) {
  comops::Backend& backend = shm_backend(static_cast<int>(state.range(0)));
  comops::Args args;
  args.op = comops::OpKind::kPingpong;
  args.np = 2;
  args.bytes = static_cast<std::size_t>(state.range(1));
  args.count = args.bytes / comops::kElemBytes;
  const comops::OpFactory factory = comops::bind_op(backend, args.op);
  const benchmark::IterationCount iterations = state.max_iterations;
  backend.spmd(2, [&](comops::Comm& comm) {
    std::vector<comops::Elem> send(args.count, comm.rank() + 1), recv(args.count);
    comops::Buffers bufs{send.data(), args.count, recv.data(), args.count};
    auto op = factory(comm, args, bufs);
    op->run();  // warm-up
    comm.barrier();
    if (comm.rank() == 0) {
      for (auto _ : state) op->run();  // only thread 0 touches state
    } else {
      for (benchmark::IterationCount i = 0; i < iterations; ++i) op->run();
    }
    comm.barrier();
  });
  state.SetLabel(backend.label());
  state.SetBytesProcessed(state.iterations() * 2 * static_cast<std::int64_t>(args.bytes));
}

BENCHMARK(BM_ShmPingpong)
    ->ArgNames({"scheme", "bytes"})
    ->ArgsProduct({{0, 1}, {8, 64, 4096, 65536, 1 << 20}})
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
