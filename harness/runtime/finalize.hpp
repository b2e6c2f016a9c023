// MPI_Finalize that cannot hang in MPICH 4.0.2's UCX endpoint disconnect over TCP.
#pragma once

namespace comops {

/// Barrier over MPI_COMM_WORLD, then MPI_Finalize without the UCX endpoint flush that deadlocks
/// MPICH 4.0.2 over TCP (see finalize.cpp). Every rank must call it; no communication may be
/// pending. COMOPS_FINALIZE_DISCONNECT=1 in the environment restores MPICH's own disconnect.
void finalize_mpi();

}  // namespace comops
