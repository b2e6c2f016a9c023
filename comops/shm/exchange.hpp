// What shm alltoall and allgather share: every thread sends a block to every thread, through a
// shared buffer (staged) or by one copy from the sender's buffer into the receiver's (direct).
#pragma once

#include <memory>

#include "comops/shm/shm_op.hpp"

namespace comops::shm {

/// Which block of a sender's send buffer goes to receiver r.
enum class Exchange {
  kPersonal,  ///< alltoall: block r (the send buffer holds one block per receiver)
  kShared,    ///< allgather: the whole send buffer, one block, to every receiver
};

/// An instance of the exchange `what` in `scheme`; block j of a receive buffer comes from thread j.
std::unique_ptr<OpInstance> make_exchange(Exchange what, Scheme scheme, Comm& comm,
                                          const Args& args, Buffers& bufs);

/// The op table entry of `kind`, an exchange of kind `what` under `scheme` (allgather.cpp,
/// alltoall.cpp).
OpTable exchange_entries(OpKind kind, Exchange what, Scheme scheme);

}  // namespace comops::shm
