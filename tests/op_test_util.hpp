// What the MPI tests of the process-team backends (shmp, hybrid) share: a point's arguments, a
// quick measurement, and the back-to-back check of an op (each participant refills its own
// buffers with a new seed right before every run and checks its receive buffer right after, with
// no barrier in between).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "comops/op.hpp"
#include "harness/measure/measure.hpp"
#include "harness/ops/op_queries.hpp"

namespace comops::test {

/// One point: count = bytes / 8; stream-bw and bibw move 5 messages per window.
inline Args point(OpKind op, int np, std::size_t bytes, int root = 0) {
  Args a;
  a.op = op;
  a.np = np;
  a.bytes = bytes;
  a.count = bytes / kElemBytes;
  a.root = root;
  a.window = 5;
  return a;
}

/// A parameterised test's name: "PREFIX_OP" with the op's dashes as underscores (gtest names).
inline std::string case_label(const std::string& prefix, OpKind op) {
  std::string n = prefix + "_" + std::string(op_name(op));
  for (auto& c : n)
    if (c == '-') c = '_';
  return n;
}

/// A measurement kept small: `iterations` (3) timed after 1 warm-up, `repetitions` (2), a fixed
/// seed; `fault` flips one received element (the checker must find it). The one quick setting of
/// every backend's and application's tests.
inline MeasureOptions quick(bool fault = false, int iterations = 3, int repetitions = 2) {
  MeasureOptions o;
  o.iterations = iterations;
  o.warmup = 1;
  o.repetitions = repetitions;
  o.seed = 4242;
  o.inject_fault = fault;
  return o;
}

/// The sizes a test's data-moving points use: `sizes`, or the two of the environment variable
/// `name` when it is set (SMALL,LARGE in bytes): the ctests past the cores keep fewer sizes, since
/// every call there waits for the scheduler.
inline std::vector<std::size_t> sizes_or_env(const char* name, std::vector<std::size_t> sizes) {
  const char* env = std::getenv(name);
  if (env == nullptr) return sizes;
  const std::string text(env);
  const auto comma = text.find(',');
  return {std::stoul(text.substr(0, comma)), std::stoul(text.substr(comma + 1))};
}

/// The wrong elements over `runs` back-to-back runs of `factory`'s op at args (summed over the
/// participants, on every one). Right only if no send buffer is read after its owner's run
/// returned and no receive buffer is written outside its owner's run.
inline std::int64_t back_to_back_wrong(Backend& backend, const OpFactory& factory, const Args& args,
                                       int runs = 20) {
  std::int64_t wrong = 0;
  backend.spmd(args.np, [&](Comm& comm) {
    const int rank = comm.rank();
    BufferSpace space = comm.allocate_buffers(send_count(args, rank), recv_count(args, rank));
    Buffers bufs{space.send, send_count(args, rank), space.recv, recv_count(args, rank)};
    auto inst = factory(comm, args, bufs);
    std::int64_t mine = 0;
    for (int i = 0; i < runs; ++i) {
      const std::uint64_t seed = 700 + static_cast<std::uint64_t>(i);
      fill_inputs(args, rank, seed, bufs);
      inst->run();
      mine += count_wrong(args, rank, seed, bufs);
    }
    comm.barrier();  // nobody may still use the buffers when they go
    inst.reset();
    wrong = comm.allreduce(mine, Reduce::kSum);
  });
  return wrong;
}

}  // namespace comops::test
