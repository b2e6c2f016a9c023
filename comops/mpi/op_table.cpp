// The ops the mpi backend implements: one line per op, its key and its factory.
#include "comops/mpi/ops.hpp"

namespace comops::mpi {

OpTable op_table() {
  return {{OpKind::kPingpong, make_pingpong}, {OpKind::kBroadcast, make_broadcast},
          {OpKind::kReduceMax, make_reduce},  {OpKind::kReduceSum, make_reduce},
          {OpKind::kGather, make_gather},     {OpKind::kScatter, make_scatter},
          {OpKind::kBarrier, make_barrier},   {OpKind::kPingpongNb, make_pingpong_nb},
          {OpKind::kStreamBw, make_stream_bw}};
}

}  // namespace comops::mpi
