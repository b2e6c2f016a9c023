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

// The applications (--app), both schemes.
constexpr OpMaker<Scheme> kAppMakers[] = {
    {OpKind::kMatmul, make_matmul},
    {OpKind::kEm3d, make_em3d},
};

// One-sided ops: the origin copies straight into or out of the target's buffer, which only the
// direct scheme does.
constexpr OpMaker<Scheme> kDirectMakers[] = {
    {OpKind::kPut, make_rma},        {OpKind::kGet, make_rma},       {OpKind::kPutBw, make_rma},
    {OpKind::kGetBw, make_rma},      {OpKind::kPutFence, make_rma},  {OpKind::kGetFence, make_rma},
    {OpKind::kPutFenceBw, make_rma}, {OpKind::kGetFenceBw, make_rma}};

}  // namespace

OpTable op_table(Scheme scheme) {
  OpTable table = bind_makers(kMakers, scheme);
  for (OpEntry& e : bind_makers(kAppMakers, scheme)) table.push_back(std::move(e));
  if (scheme == Scheme::kDirect) {
    for (OpEntry& e : bind_makers(kDirectMakers, scheme)) table.push_back(std::move(e));
    // stream-bw streams straight into the receiver's slots.
    table.push_back({OpKind::kStreamBw, make_stream_bw});
  }
  return table;
}

}  // namespace comops::shm
