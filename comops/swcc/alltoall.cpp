// swcc alltoall: block j of each rank's send buffer to rank j (comops/swcc/exchange.cpp).
#include "comops/swcc/exchange.hpp"

namespace comops::swcc {

namespace {

std::unique_ptr<OpInstance> make_alltoall(const OpConfig& cfg, Comm& comm, const Args& args,
                                          Buffers& bufs) {
  return make_exchange(Exchange::kPersonal, cfg, comm, args, bufs);
}

}  // namespace

OpTable alltoall_ops(const OpConfig& cfg) {
  return op_entries({OpKind::kAlltoall}, make_alltoall, cfg);
}

}  // namespace comops::swcc
