// mpi one-sided put and get (comops/rma.hpp): an MPI RMA window over participant 1's buffer on
// a communicator of the pair, created once per point. Passive target (put, get, put-bw, get-bw):
// the origin locks the target once and completes each call with MPI_Win_flush, as OSU's default.
// Active target (the -fence ops): each call is one epoch, MPI_Win_fence on both sides before and
// after the origin's operations, so the window is exposed only inside the call.
#include "comops/rma.hpp"

#include <exception>

#include "comops/mpi/mpi_op.hpp"
#include "comops/mpi/ops.hpp"

namespace comops::mpi {
namespace {

class Rma final : public MpiOp {
 public:
  Rma(Comm& comm, const Args& args, Buffers& bufs)
      : MpiOp(comm, args, bufs),
        shape_(rma_shape(args.op, args.bytes)),
        bytes_(mpi_count(args.bytes)),
        local_(shape_.put ? reinterpret_cast<char*>(bufs.send)
                          : reinterpret_cast<char*>(bufs.recv)) {
    MPI_Comm_split(comm_, rank_ < 2 ? 0 : MPI_UNDEFINED, rank_, &pair_);
    if (pair_ == MPI_COMM_NULL) return;
    void* base = nullptr;
    MPI_Aint exposed = 0;
    if (rank_ == 1) {
      base = shape_.put ? static_cast<void*>(bufs.recv) : static_cast<void*>(bufs.send);
      exposed = static_cast<MPI_Aint>(shape_.slots) * bytes_;
    }
    MPI_Win_create(base, exposed, 1, MPI_INFO_NULL, pair_, &win_);
    if (!shape_.fence && rank_ == 0) MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win_);
  }

  // Collective over the pair: skipped while an exception unwinds one participant alone (the mpi
  // backend then aborts the job; waiting for the partner here would hang it).
  ~Rma() override {
    if (pair_ == MPI_COMM_NULL || std::uncaught_exceptions() > 0) return;
    if (!shape_.fence && rank_ == 0) MPI_Win_unlock(1, win_);
    MPI_Win_free(&win_);
    MPI_Comm_free(&pair_);
  }

  void run() override {
    if (pair_ == MPI_COMM_NULL) return;
    if (shape_.fence) MPI_Win_fence(MPI_MODE_NOPRECEDE, win_);
    if (rank_ == 0) {
      for (int j = 0; j < shape_.window; ++j) {
        const MPI_Aint at =
            static_cast<MPI_Aint>(static_cast<std::size_t>(j) % shape_.slots) * bytes_;
        if (shape_.put)
          MPI_Put(local_ + at, bytes_, MPI_BYTE, 1, at, bytes_, MPI_BYTE, win_);
        else
          MPI_Get(local_ + at, bytes_, MPI_BYTE, 1, at, bytes_, MPI_BYTE, win_);
      }
      if (!shape_.fence) MPI_Win_flush(1, win_);
    }
    if (shape_.fence) MPI_Win_fence(MPI_MODE_NOSUCCEED, win_);
  }

 private:
  const RmaShape shape_;
  const int bytes_;
  char* const local_;  // the origin's side: its send (put) or receive (get) buffer
  MPI_Comm pair_ = MPI_COMM_NULL;
  MPI_Win win_ = MPI_WIN_NULL;
};

}  // namespace

OpTable rma_ops() {
  return op_entries({OpKind::kPut, OpKind::kGet, OpKind::kPutBw, OpKind::kGetBw, OpKind::kPutFence,
                     OpKind::kGetFence, OpKind::kPutFenceBw, OpKind::kGetFenceBw},
                    make_op<Rma>);
}

}  // namespace comops::mpi
