// Alltoall and allgather on threads. Staged (the paper's scheme, as gather and scatter): every
// thread copies its send buffer into its row of a shared buffer, full barrier, every thread copies
// its blocks out of the rows, full barrier. Direct: every thread copies its blocks straight from
// the senders' send buffers into its receive buffer (each byte copied once) as soon as each sender
// has posted message s, then a barrier, so that no send buffer is read after its owner returns.
#include "comops/shm/exchange.hpp"

namespace comops::shm {
namespace {

struct ExchangeShared {
  ExchangeShared(Arena& arena, int np, std::size_t staging_count)
      : posted(arena, static_cast<std::size_t>(np)), staging(arena, staging_count) {}
  ShmArray<SeqFlag> posted;  // thread j: its send buffer holds message s
  SharedArray staging;       // staged: np rows of one send buffer each
};

// The thread's point, and where its blocks sit in a sender's send buffer.
class ExchangeOp : public ShmOp {
 protected:
  ExchangeOp(Exchange what, Comm& comm, const Args& args, Buffers& bufs)
      : ShmOp(comm, args, bufs),
        row_(what == Exchange::kPersonal ? args.count * static_cast<std::size_t>(np_) : args.count),
        mine_(what == Exchange::kPersonal ? args.count * static_cast<std::size_t>(rank_) : 0) {}

  Elem* recv_block(int sender) const {
    return bufs_.recv + static_cast<std::size_t>(sender) * args_.count;
  }

  const std::size_t row_;   // elements of one send buffer
  const std::size_t mine_;  // offset of this thread's block in every send buffer
  std::shared_ptr<ExchangeShared> sh_;
};

class StagedExchange final : public ExchangeOp {
 public:
  StagedExchange(Exchange what, Comm& comm, const Args& args, Buffers& bufs)
      : ExchangeOp(what, comm, args, bufs) {
    sh_ = team_.make_shared<ExchangeShared>(rank_, 0, row_ * static_cast<std::size_t>(np_));
  }

  void run() override {
    Elem* staging = sh_->staging.data();
    copy_elems(staging + static_cast<std::size_t>(rank_) * row_, bufs_.send, row_);
    team_.central_barrier(rank_);
    for (int j = 0; j < np_; ++j)
      copy_elems(recv_block(j), staging + static_cast<std::size_t>(j) * row_ + mine_, args_.count);
    team_.central_barrier(rank_);  // the next copies in must not overtake this copy out
  }
};

class DirectExchange final : public ExchangeOp {
 public:
  DirectExchange(Exchange what, Comm& comm, const Args& args, Buffers& bufs)
      : ExchangeOp(what, comm, args, bufs) {
    sh_ = team_.make_shared<ExchangeShared>(rank_, np_, 0);
    publish();
  }

  void run() override {
    const std::uint64_t s = next();
    sh_->posted[static_cast<std::size_t>(rank_)].seq.store(s, std::memory_order_release);
    // Start with the own block, then the next threads, so that the readers spread over senders.
    for (int k = 0; k < np_; ++k) {
      const int j = (rank_ + k) % np_;
      const auto uj = static_cast<std::size_t>(j);
      team_.wait_geq(sh_->posted[uj].seq, s);
      copy_elems(recv_block(j), peers_[uj].send + mine_, args_.count);
    }
    // Return only when nobody reads this send buffer any more; no thread posts s+1 before it.
    team_.barrier(rank_);
  }
};

}  // namespace

std::unique_ptr<OpInstance> make_exchange(Exchange what, Scheme scheme, Comm& comm,
                                          const Args& args, Buffers& bufs) {
  if (scheme == Scheme::kStaged) return std::make_unique<StagedExchange>(what, comm, args, bufs);
  return std::make_unique<DirectExchange>(what, comm, args, bufs);
}

OpTable exchange_entries(OpKind kind, Exchange what, Scheme scheme) {
  return op_entries({kind}, [what, scheme](Comm& comm, const Args& args, Buffers& bufs) {
    return make_exchange(what, scheme, comm, args, bufs);
  });
}

}  // namespace comops::shm
