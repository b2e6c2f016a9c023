// shm allgather: each thread's block to every thread (comops/shm/exchange.cpp).
#include "comops/shm/exchange.hpp"

namespace comops::shm {

namespace {

std::unique_ptr<OpInstance> make_allgather(Scheme scheme, Comm& comm, const Args& args,
                                           Buffers& bufs) {
  return make_exchange(Exchange::kShared, scheme, comm, args, bufs);
}

}  // namespace

OpTable allgather_ops(Scheme scheme) {
  return op_entries({OpKind::kAllgather}, make_allgather, scheme);
}

}  // namespace comops::shm
