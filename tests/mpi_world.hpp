// This process's rank and the size of MPI_COMM_WORLD, for MPI tests.
#pragma once

#include <mpi.h>

namespace comops::test {

inline int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

inline int world_size() {
  int n = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

}  // namespace comops::test
