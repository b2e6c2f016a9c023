// shm alltoall: block j of each thread's send buffer to thread j (comops/shm/exchange.cpp).
#include "comops/shm/exchange.hpp"

namespace comops::shm {

namespace {

std::unique_ptr<OpInstance> make_alltoall(Scheme scheme, Comm& comm, const Args& args,
                                          Buffers& bufs) {
  return make_exchange(Exchange::kPersonal, scheme, comm, args, bufs);
}

}  // namespace

OpTable alltoall_ops(Scheme scheme) {
  return op_entries({OpKind::kAlltoall}, make_alltoall, scheme);
}

}  // namespace comops::shm
