// mpi gather, scatter, alltoall and allgather share one shape: a block per rank moved by an MPI
// collective with the signature of MPI_Gather / MPI_Scatter (rooted) or MPI_Alltoall /
// MPI_Allgather (every rank sends and receives).
#pragma once

#include "comops/mpi/mpi_op.hpp"

namespace comops::mpi {

using BlockCollectiveFn = int (*)(const void*, int, MPI_Datatype, void*, int, MPI_Datatype, int,
                                  MPI_Comm);
using BlockExchangeFn = int (*)(const void*, int, MPI_Datatype, void*, int, MPI_Datatype, MPI_Comm);

template <BlockCollectiveFn Fn>
class BlockCollective final : public MpiOp {
 public:
  BlockCollective(Comm& comm, const Args& args, Buffers& bufs)
      : MpiOp(comm, args, bufs), bytes_(mpi_count(args.bytes)) {}
  void run() override {
    Fn(bufs_.send, bytes_, MPI_BYTE, bufs_.recv, bytes_, MPI_BYTE, args_.root, comm_);
  }

 private:
  const int bytes_;
};

/// The rootless shape: a block (per receiver for alltoall) from every rank to every rank.
template <BlockExchangeFn Fn>
class BlockExchange final : public MpiOp {
 public:
  BlockExchange(Comm& comm, const Args& args, Buffers& bufs)
      : MpiOp(comm, args, bufs), bytes_(mpi_count(args.bytes)) {}
  void run() override { Fn(bufs_.send, bytes_, MPI_BYTE, bufs_.recv, bytes_, MPI_BYTE, comm_); }

 private:
  const int bytes_;
};

}  // namespace comops::mpi
