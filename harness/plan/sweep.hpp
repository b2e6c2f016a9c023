// The sweep as data: every (backend, op, np, size) point, built identically on every rank
// before anything runs, so no rank can take a different branch.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "comops/op.hpp"
#include "harness/plan/config.hpp"
#include "harness/runtime/placement.hpp"

namespace comops {

struct Point {
  std::size_t backend = 0;  ///< index into the configured backends
  OpKind op = OpKind::kPingpong;
  int np = 2;
  std::size_t bytes = 0;
  bool size_table = false;  ///< belongs to the bandwidth-versus-size table (np = size_np)
  bool np_table = false;    ///< belongs to the time-versus-nprocs table (bytes = np_bytes)
  Pair pair = Pair::kNone;  ///< ping-pong: where participant 1 sits
  int window = 1;           ///< messages per operation of a windowed op (Config::window)
  AppParams app = {};       ///< an application's parameters (Config::app_points); empty for an op
};

/// Size points at config.size_np, then np points at config.np_bytes (when np_tables(config); ops
/// without a size always get their np points), per backend and op; a point in both tables
/// appears once. Ping-pong points come once per pair of config.pairs (intra alone
/// when empty). Ops a backend does not implement, and inter-node pairs of node-local backends, are
/// left out and named in `skipped` ("swcc-64: gather is not implemented"). An application runs
/// like an op without a size, once per np and per combination of its parameters.
std::vector<Point> build_sweep(const Config& config,
                               const std::vector<std::unique_ptr<Backend>>& backends,
                               std::vector<std::string>* skipped);

/// Leaves out the points of a backend whose processes share one node's memory (node_local, shmp)
/// that need more ranks than node 0 runs, with one note per backend, op and np in `skipped`
/// ("shmp-direct: broadcast at np=4 needs 4 ranks on node 0 (a), which runs 2"). The same on
/// every rank.
void drop_beyond_node0(const NodeMap& nodes, const std::vector<std::unique_ptr<Backend>>& backends,
                       std::vector<Point>& points, std::vector<std::string>* skipped);

/// A point's participants: threads in world rank 0's process; processes by `policy`, or node 0's
/// first ranks (packed) for processes that share one node's memory.
Placement place_point(const Backend& backend, const NodeMap& nodes, const Point& point,
                      PlacementPolicy policy);

/// Args for a point (count, root, window, app).
Args args_for(const Point& point);

}  // namespace comops
