// swcc allgather: each rank's block to every rank (comops/swcc/exchange.cpp).
#include "comops/swcc/exchange.hpp"

namespace comops::swcc {

OpTable allgather_ops(const OpConfig& cfg) {
  return exchange_entries(OpKind::kAllgather, Exchange::kShared, cfg);
}

}  // namespace comops::swcc
