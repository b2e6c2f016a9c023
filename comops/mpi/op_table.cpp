// The ops the mpi backend implements: one line per op, its key and its factory.
#include "comops/mpi/ops.hpp"

namespace comops::mpi {

OpTable op_table() {
  return {{OpKind::kPingpong, make_pingpong},
          {OpKind::kBroadcast, make_broadcast},
          {OpKind::kReduceMax, make_reduce},
          {OpKind::kReduceSum, make_reduce},
          {OpKind::kGather, make_gather},
          {OpKind::kScatter, make_scatter},
          {OpKind::kBarrier, make_barrier},
          {OpKind::kAlltoall, make_alltoall},
          {OpKind::kAllgather, make_allgather},
          {OpKind::kAllreduceMax, make_allreduce},
          {OpKind::kAllreduceSum, make_allreduce},
          {OpKind::kPut, make_rma},
          {OpKind::kGet, make_rma},
          {OpKind::kPutBw, make_rma},
          {OpKind::kGetBw, make_rma},
          {OpKind::kPutFence, make_rma},
          {OpKind::kGetFence, make_rma},
          {OpKind::kPutFenceBw, make_rma},
          {OpKind::kGetFenceBw, make_rma},
          {OpKind::kPingpongNb, make_pingpong},
          {OpKind::kStreamBw, make_stream_bw},
          {OpKind::kMatmul, make_matmul},
          {OpKind::kEm3d, make_em3d}};
}

}  // namespace comops::mpi
