// The base of the mpi backend's ops, as ShmOp is shm's: what every op file takes from the point
// (the participants' communicator, this participant's rank, the point's arguments and buffers),
// the reduction as an MPI_Op, and the one factory the op tables take (make_op<Op>).
#pragma once

#include <mpi.h>

#include <memory>

#include "comops/mpi_common/mpi_comm.hpp"
#include "comops/op.hpp"

namespace comops::mpi {

/// Abstract (run() is OpInstance's); public, so that an op with nothing of its own inherits it
/// (using MpiOp::MpiOp).
class MpiOp : public OpInstance {
 public:
  MpiOp(Comm& comm, const Args& args, Buffers& bufs)
      : comm_(handle_of(comm)), rank_(comm.rank()), args_(args), bufs_(bufs) {}

 protected:
  /// The reduction the point's op names (reduce-max, allreduce-sum, ...): MPI_MAX or MPI_SUM.
  MPI_Op reduction() const { return reduction_of(args_.op) == Reduce::kSum ? MPI_SUM : MPI_MAX; }

  const MPI_Comm comm_;  ///< the point's participants, ranks 0 .. np-1
  const int rank_;       ///< this participant
  const Args args_;
  Buffers& bufs_;
};

/// An op table's factory for Op, constructed from the point: op_entries({...}, make_op<Op>).
template <class Op>
std::unique_ptr<OpInstance> make_op(Comm& comm, const Args& args, Buffers& bufs) {
  return std::make_unique<Op>(comm, args, bufs);
}

}  // namespace comops::mpi
