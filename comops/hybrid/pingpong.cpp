// hybrid ping-pong (and pingpong-nb): MPI point-to-point between participants 0 and 1 on the
// point's communicator, the mpi backend's op itself (the harness's --pair picks the two ranks on
// one node or on two).
#include "comops/hybrid/hybrid_op.hpp"
#include "comops/mpi/ops.hpp"

namespace comops::hybrid {

OpTable pingpong_ops() { return mpi::pingpong_ops(); }

}  // namespace comops::hybrid
