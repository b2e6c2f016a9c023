// shm allgather: each thread's block to every thread (comops/shm/exchange.cpp).
#include "comops/shm/exchange.hpp"

namespace comops::shm {

OpTable allgather_ops(Scheme scheme) {
  return exchange_entries(OpKind::kAllgather, Exchange::kShared, scheme);
}

}  // namespace comops::shm
