// swcc alltoall: block j of each rank's send buffer to rank j (comops/swcc/exchange.cpp).
#include "comops/swcc/exchange.hpp"

namespace comops::swcc {

std::unique_ptr<OpInstance> make_alltoall(const OpConfig& cfg, Comm& comm, const Args& args,
                                          Buffers& bufs) {
  return make_exchange(Exchange::kPersonal, cfg, comm, args, bufs);
}

}  // namespace comops::swcc
