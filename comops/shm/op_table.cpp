// The ops the shm backend implements: one line per op, its key and its factory (both schemes).
#include "comops/shm/shm_op.hpp"

namespace comops::shm {
namespace {

constexpr OpMaker<Scheme> kMakers[] = {
    {OpKind::kPingpong, make_pingpong},     {OpKind::kBroadcast, make_broadcast},
    {OpKind::kReduceMax, make_reduce},      {OpKind::kReduceSum, make_reduce},
    {OpKind::kGather, make_gather},         {OpKind::kScatter, make_scatter},
    {OpKind::kBarrier, make_barrier},       {OpKind::kAlltoall, make_alltoall},
    {OpKind::kAllgather, make_allgather},   {OpKind::kAllreduceMax, make_allreduce},
    {OpKind::kAllreduceSum, make_allreduce}};

}  // namespace

OpTable op_table(Scheme scheme) { return bind_makers(kMakers, scheme); }

}  // namespace comops::shm
