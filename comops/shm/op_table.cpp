// The ops the shm backend implements: one line per op, its key and its factory (both schemes).
#include "comops/shm/shm_op.hpp"

namespace comops::shm {
namespace {

constexpr OpMaker<Scheme> kMakers[] = {
    {OpKind::kPingpong, make_pingpong}, {OpKind::kBroadcast, make_broadcast},
    {OpKind::kReduceMax, make_reduce},  {OpKind::kReduceSum, make_reduce},
    {OpKind::kGather, make_gather},     {OpKind::kScatter, make_scatter},
    {OpKind::kBarrier, make_barrier}};

}  // namespace

OpTable op_table(Scheme scheme) {
  OpTable table = bind_makers(kMakers, scheme);
  // Ops of one scheme: stream-bw streams straight into the receiver's slots (direct only).
  if (scheme == Scheme::kDirect) table.push_back({OpKind::kStreamBw, make_stream_bw});
  return table;
}

}  // namespace comops::shm
