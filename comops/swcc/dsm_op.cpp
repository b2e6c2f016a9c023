// DsmOpBase: the engine of one op instance and its counters.
#include "comops/swcc/dsm_op.hpp"

namespace comops::swcc {

DsmOpBase::DsmOpBase(Comm& comm, const OpConfig& cfg, std::size_t segment_bytes)
    : comm_(swcc_comm_of(comm)) {
  Config c;
  c.block_bytes = cfg.block_bytes;
  c.uncached = cfg.uncached;
  c.segment_bytes = segment_bytes;
  c.on_wait = [comm = &comm_] { comm->check(); };  // another participant's failure ends our waits
  engine_ = std::make_unique<Engine>(comm_.handle(), c);
  comm_.attach(engine_.get());
}

DsmOpBase::~DsmOpBase() { comm_.attach(nullptr); }

Counters DsmOpBase::counters() const {
  const Stats s = engine_->stats();
  return {{"hits", s.hits},         {"misses", s.misses},
          {"messages", s.messages}, {"bytes", s.bytes},
          {"packets", s.packets},   {"nacks", s.nacks},
          {"retries", s.retries},   {"invalidations", s.invalidations}};
}

std::size_t segment_for(std::size_t bytes, int np) {
  const std::size_t need = bytes * static_cast<std::size_t>(np) + (1 << 16);
  return (need + 4095) / 4096 * 4096;
}

}  // namespace comops::swcc
