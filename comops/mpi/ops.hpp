// Factories of the mpi backend's operations, one file each, and the table of them.
#pragma once

#include "comops/op.hpp"

namespace comops::mpi {

std::unique_ptr<OpInstance> make_pingpong(Comm& comm, const Args& args, Buffers& bufs);
std::unique_ptr<OpInstance> make_broadcast(Comm& comm, const Args& args, Buffers& bufs);
std::unique_ptr<OpInstance> make_reduce(Comm& comm, const Args& args, Buffers& bufs);
std::unique_ptr<OpInstance> make_gather(Comm& comm, const Args& args, Buffers& bufs);
std::unique_ptr<OpInstance> make_scatter(Comm& comm, const Args& args, Buffers& bufs);
std::unique_ptr<OpInstance> make_barrier(Comm& comm, const Args& args, Buffers& bufs);
std::unique_ptr<OpInstance> make_alltoall(Comm& comm, const Args& args, Buffers& bufs);
std::unique_ptr<OpInstance> make_allgather(Comm& comm, const Args& args, Buffers& bufs);
std::unique_ptr<OpInstance> make_allreduce(Comm& comm, const Args& args, Buffers& bufs);
/// Every one-sided op (put, get, their -bw and -fence variants): the op's key says which.
std::unique_ptr<OpInstance> make_rma(Comm& comm, const Args& args, Buffers& bufs);
std::unique_ptr<OpInstance> make_stream_bw(Comm& comm, const Args& args, Buffers& bufs);
/// The matmul application (--app=matmul): B's rows allgathered, then a local multiply.
std::unique_ptr<OpInstance> make_matmul(Comm& comm, const Args& args, Buffers& bufs);
/// The EM3D application (--app=em3d): ghost values exchanged point to point each half-step.
std::unique_ptr<OpInstance> make_em3d(Comm& comm, const Args& args, Buffers& bufs);

/// The ops the mpi backend implements (comops/mpi/op_table.cpp).
OpTable op_table();

}  // namespace comops::mpi
