// mpi gather, scatter, alltoall and allgather share one shape: a block per rank moved by an MPI
// collective with the signature of MPI_Gather / MPI_Scatter (rooted) or MPI_Alltoall /
// MPI_Allgather (every rank sends and receives).
#pragma once

#include <mpi.h>

#include "comops/mpi_common/mpi_comm.hpp"

namespace comops::mpi {

using BlockCollectiveFn = int (*)(const void*, int, MPI_Datatype, void*, int, MPI_Datatype, int,
                                  MPI_Comm);
using BlockExchangeFn = int (*)(const void*, int, MPI_Datatype, void*, int, MPI_Datatype, MPI_Comm);

template <BlockCollectiveFn Fn>
class BlockCollective final : public OpInstance {
 public:
  BlockCollective(Comm& comm, const Args& args, Buffers& bufs)
      : comm_(handle_of(comm)), root_(args.root), bytes_(mpi_count(args.bytes)), bufs_(bufs) {}
  void run() override {
    Fn(bufs_.send, bytes_, MPI_BYTE, bufs_.recv, bytes_, MPI_BYTE, root_, comm_);
  }

 private:
  MPI_Comm comm_;
  int root_;
  int bytes_;
  Buffers& bufs_;
};

/// The rootless shape: a block (per receiver for alltoall) from every rank to every rank.
template <BlockExchangeFn Fn>
class BlockExchange final : public OpInstance {
 public:
  BlockExchange(Comm& comm, const Args& args, Buffers& bufs)
      : comm_(handle_of(comm)), bytes_(mpi_count(args.bytes)), bufs_(bufs) {}
  void run() override { Fn(bufs_.send, bytes_, MPI_BYTE, bufs_.recv, bytes_, MPI_BYTE, comm_); }

 private:
  MPI_Comm comm_;
  int bytes_;
  Buffers& bufs_;
};

}  // namespace comops::mpi
