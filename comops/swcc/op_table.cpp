// The ops the swcc backend implements: one line per op, its key and its factory.
#include "comops/swcc/dsm_op.hpp"

namespace comops::swcc {
namespace {

constexpr OpMaker<const OpConfig&> kMakers[] = {
    {OpKind::kPingpong, make_pingpong},      {OpKind::kBroadcast, make_broadcast},
    {OpKind::kReduceMax, make_reduce},       {OpKind::kReduceSum, make_reduce},
    {OpKind::kGather, make_gather},          {OpKind::kScatter, make_scatter},
    {OpKind::kBarrier, make_barrier},        {OpKind::kAlltoall, make_alltoall},
    {OpKind::kAllgather, make_allgather},    {OpKind::kAllreduceMax, make_allreduce},
    {OpKind::kAllreduceSum, make_allreduce}, {OpKind::kPutFence, make_fence_rma},
    {OpKind::kGetFence, make_fence_rma},     {OpKind::kPutFenceBw, make_fence_rma},
    {OpKind::kGetFenceBw, make_fence_rma},   {OpKind::kPingpongNb, make_pingpong}};

// The applications (--app).
constexpr OpMaker<const OpConfig&> kAppMakers[] = {
    {OpKind::kMatmul, make_matmul},
    {OpKind::kEm3d, make_em3d},
};

}  // namespace

OpTable op_table(const OpConfig& cfg) {
  OpTable table = bind_makers(kMakers, cfg);
  for (OpEntry& e : bind_makers(kAppMakers, cfg)) table.push_back(std::move(e));
  return table;
}

}  // namespace comops::swcc
