// shm alltoall: block j of each thread's send buffer to thread j (comops/shm/exchange.cpp).
#include "comops/shm/exchange.hpp"

namespace comops::shm {

OpTable alltoall_ops(Scheme scheme) {
  return exchange_entries(OpKind::kAlltoall, Exchange::kPersonal, scheme);
}

}  // namespace comops::shm
