// swcc alltoall: block j of each rank's send buffer to rank j (comops/swcc/exchange.cpp).
#include "comops/swcc/exchange.hpp"

namespace comops::swcc {

OpTable alltoall_ops(const OpConfig& cfg) {
  return exchange_entries(OpKind::kAlltoall, Exchange::kPersonal, cfg);
}

}  // namespace comops::swcc
