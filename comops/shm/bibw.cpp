// shm bidirectional streaming bandwidth (osu_bibw's method between threads 0 and 1): both send a
// window of W messages to each other at once. Direct: once the peer has posted its receive
// buffer (entered the run), each thread copies every message of its window from its send slot
// straight into the same slot of the peer's receive buffer and raises that slot's flag, without
// waiting in between, then waits for every slot the peer sends it. Staged (the paper's scheme):
// each thread copies its window into a shared staging buffer of its direction, raises a flag,
// waits for the peer's, copies the peer's window out and says it has; a thread refills its
// staging buffer only once the peer has copied the previous window out. Other threads idle.
#include <fmt/format.h>

#include <vector>

#include "comops/shm/shm_op.hpp"

namespace comops::shm {
namespace {

struct BibwShared {
  BibwShared(Arena& arena, int window, std::size_t staged_count)
      : slot{ShmArray<SeqFlag>(arena, static_cast<std::size_t>(window)),
             ShmArray<SeqFlag>(arena, static_cast<std::size_t>(window))},
        stage{SharedArray(arena, staged_count), SharedArray(arena, staged_count)} {}
  ShmArray<SeqFlag> slot[2];  // slot[r][k] = s: message k of thread r's window s delivered
  SeqFlag posted[2];          // thread r entered run s: its receive buffer is free for s
  SeqFlag copied_out[2];      // staged: thread r copied the peer's window s out
  SharedArray stage[2];       // staged: thread r's window, for the peer to copy out
};

class Bibw final : public ShmOp {
 public:
  Bibw(Scheme scheme, Comm& comm, const Args& args, Buffers& bufs)
      : ShmOp(comm, args, bufs),
        staged_(scheme == Scheme::kStaged),
        n_(args.count * static_cast<std::size_t>(args.window)) {
    sh_ = team_.make_shared<BibwShared>(rank_, args.window, staged_ ? n_ : 0);
    publish();
  }

  void run() override {
    if (rank_ > 1) return;
    const std::uint64_t s = next();
    if (staged_)
      run_staged(s);
    else
      run_direct(s);
  }

 private:
  void run_direct(std::uint64_t s) {
    const auto me = static_cast<std::size_t>(rank_), peer = 1 - me;
    const std::size_t n = args_.count;
    sh_->posted[me].seq.store(s, std::memory_order_release);
    team_.wait_geq(sh_->posted[peer].seq, s);
    Elem* dst = peers_[peer].recv;
    for (std::size_t k = 0; k < sh_->slot[me].size(); ++k) {
      copy_elems(dst + k * n, bufs_.send + k * n, n);
      sh_->slot[me][k].seq.store(s, std::memory_order_release);
    }
    for (SeqFlag& f : sh_->slot[peer]) team_.wait_geq(f.seq, s);
  }

  void run_staged(std::uint64_t s) {
    const auto me = static_cast<std::size_t>(rank_), peer = 1 - me;
    team_.wait_geq(sh_->copied_out[peer].seq, s - 1);  // the peer took window s-1 out
    copy_elems(sh_->stage[me].data(), bufs_.send, n_);
    sh_->posted[me].seq.store(s, std::memory_order_release);
    team_.wait_geq(sh_->posted[peer].seq, s);
    copy_elems(bufs_.recv, sh_->stage[peer].data(), n_);
    sh_->copied_out[me].seq.store(s, std::memory_order_release);
  }

  bool staged_;
  std::size_t n_;  // elements of a window
  std::shared_ptr<BibwShared> sh_;
};

std::unique_ptr<OpInstance> make_bibw(Scheme scheme, Comm& comm, const Args& args, Buffers& bufs) {
  if (comm.size() < 2)
    throw RuntimeError(fmt::format("shm bibw needs 2 threads, got {}", comm.size()));
  return std::make_unique<Bibw>(scheme, comm, args, bufs);
}

}  // namespace

OpTable bibw_ops(Scheme scheme) { return op_entries({OpKind::kBibw}, make_bibw, scheme); }

}  // namespace comops::shm
