// swcc allgather: each rank's block to every rank (comops/swcc/exchange.cpp).
#include "comops/swcc/exchange.hpp"

namespace comops::swcc {

namespace {

std::unique_ptr<OpInstance> make_allgather(const OpConfig& cfg, Comm& comm, const Args& args,
                                           Buffers& bufs) {
  return make_exchange(Exchange::kShared, cfg, comm, args, bufs);
}

}  // namespace

OpTable allgather_ops(const OpConfig& cfg) {
  return op_entries({OpKind::kAllgather}, make_allgather, cfg);
}

}  // namespace comops::swcc
