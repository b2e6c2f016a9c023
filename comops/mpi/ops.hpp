// Factories of the mpi backend's operations, one file each.
#pragma once

#include "comops/op.hpp"

namespace comops::mpi {

std::unique_ptr<OpInstance> make_pingpong(Comm& comm, const Args& args, Buffers& bufs);
std::unique_ptr<OpInstance> make_broadcast(Comm& comm, const Args& args, Buffers& bufs);
std::unique_ptr<OpInstance> make_reduce(Comm& comm, const Args& args, Buffers& bufs);
std::unique_ptr<OpInstance> make_gather(Comm& comm, const Args& args, Buffers& bufs);
std::unique_ptr<OpInstance> make_scatter(Comm& comm, const Args& args, Buffers& bufs);
std::unique_ptr<OpInstance> make_barrier(Comm& comm, const Args& args, Buffers& bufs);

}  // namespace comops::mpi
