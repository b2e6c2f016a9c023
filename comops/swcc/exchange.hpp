// What swcc alltoall and allgather share: every rank stores a block into a buffer homed at every
// rank, so that each rank reads what it receives from its own memory.
#pragma once

#include <memory>

#include "comops/swcc/dsm_op.hpp"

namespace comops::swcc {

/// Which block of a sender's send buffer goes to receiver r.
enum class Exchange {
  kPersonal,  ///< alltoall: block r (the send buffer holds one block per receiver)
  kShared,    ///< allgather: the whole send buffer, one block, to every receiver
};

/// An instance of the exchange `what`; block j of a receive buffer comes from rank j.
std::unique_ptr<OpInstance> make_exchange(Exchange what, const OpConfig& cfg, Comm& comm,
                                          const Args& args, Buffers& bufs);

/// The op table entry of `kind`, an exchange of kind `what` under `cfg` (allgather.cpp,
/// alltoall.cpp).
OpTable exchange_entries(OpKind kind, Exchange what, const OpConfig& cfg);

}  // namespace comops::swcc
