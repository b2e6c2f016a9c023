// The EM3D application's descriptor: its parameters, its buffers (comops/apps/em3d/app_params.hpp),
// its inputs (each participant's initial values from the seed) and its exact result, the serial
// reference of comops/apps/em3d/graph.hpp over the same graph and initial values.
#include <cstdint>
#include <tuple>

#include "comops/apps/em3d/app_params.hpp"
#include "comops/apps/em3d/graph.hpp"
#include "harness/ops/app_descriptors.hpp"
#include "harness/ops/descriptor_parts.hpp"

namespace comops {
namespace {

constexpr Elem kPoison = -1;  // every value is in [0, 2^31 - 1)

std::size_t two_values_per_node(const Args& a, int) { return 2 * em3d::params_of(a).nodes; }

void fill(const Args& a, int rank, std::uint64_t seed, Buffers& b) {
  const em3d::Params p = em3d::params_of(a);
  const auto e = em3d::initial_values(p, seed, em3d::Kind::kE, rank);
  const auto h = em3d::initial_values(p, seed, em3d::Kind::kH, rank);
  std::copy(e.begin(), e.end(), em3d::values_in(b.send));
  std::copy(h.begin(), h.end(), em3d::values_in(b.send) + p.nodes);
  std::fill(b.recv, b.recv + b.recv_count, kPoison);
}

// The serial reference of the whole graph, computed once per seed, np and parameters. Per
// thread: shm participants check at the same time.
Elem expected(const Args& a, int rank, std::uint64_t seed, std::size_t idx) {
  struct Reference {
    std::tuple<std::uint64_t, int, std::size_t, std::size_t, unsigned, std::size_t> key;
    em3d::Values values;
  };
  thread_local Reference ref{{~std::uint64_t{0}, 0, 0, 0, 0, 0}, {}};
  const em3d::Params p = em3d::params_of(a);
  const auto key = std::tuple{seed, a.np, p.nodes, p.degree, p.remote_pct, p.iters};
  if (ref.key != key) {
    ref.values = em3d::reference(p, a.np, em3d::kGraphSeed, seed);
    ref.key = key;
  }
  const std::size_t base = static_cast<std::size_t>(rank) * p.nodes;
  return static_cast<Elem>(idx < p.nodes ? ref.values.e[base + idx]
                                         : ref.values.h[base + idx - p.nodes]);
}

}  // namespace

OpDescriptor em3d_descriptor() {
  return {.kind = OpKind::kEm3d,
          .name = "em3d",
          .set = OpSet::kApp,
          .payload = Payload::kNone,
          .min_np = 2,
          .send_count = two_values_per_node,
          .recv_count = two_values_per_node,
          .fill = fill,
          .expected = expected,
          .fault_rank = parts::last_participant,
          .bw_factor = parts::no_bytes,
          .ceiling_shared_by = parts::one_sender_each,
          .definition =
              "time = max over participants of one EM3D run (iters x an E then an H "
              "half-step over a bipartite graph, nodes E and H nodes per participant, "
              "degree in-edges each, remote % of them from other participants); "
              "median of repetitions",
          .params = {{.name = "nodes",
                      .help = "em3d: E nodes (and as many H nodes) per participant, 1 to 131072",
                      .defaults = "1000",
                      .min = 1,
                      .max = 1 << 17},
                     {.name = "degree",
                      .help = "em3d: in-edges per node, from nodes of the other kind, 1 to 32",
                      .defaults = "10",
                      .min = 1,
                      .max = 32},
                     {.name = "remote",
                      .help = "em3d: percent of the edges that come from other participants' "
                              "nodes, 0 to 100",
                      .defaults = "10",
                      .min = 0,
                      .max = 100},
                     {.name = "iters",
                      .help = "em3d: iterations per run (an E and an H half-step each), 1 to 1000",
                      .defaults = "10",
                      .min = 1,
                      .max = 1000},
                     {.name = "split",
                      .help = "em3d on swcc: 0 = a blocking DSM read per edge (the paper's "
                              "program), 1 = split-phase gets of a half-step's remote values "
                              "first, 2 = a read view of each block holding them first; mpi "
                              "and shm run the same program for all three",
                      .defaults = "0",
                      .min = 0,
                      .max = 2}}};
}

}  // namespace comops
