// The DSM tests' message counter: protocol messages sent by all ranks together between two calls.
#pragma once

#include <mpi.h>

#include <cstdint>

namespace swcc::test {

/// Messages sent by all ranks together since the last call (collective; the DSM barrier first,
/// which is MPI's own and sends no DSM message). `last` holds the total of the previous call.
template <class D>
std::int64_t step(D& dsm, std::int64_t& last) {
  dsm.barrier();
  std::int64_t m = dsm.stats().messages;
  MPI_Allreduce(MPI_IN_PLACE, &m, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  const std::int64_t d = m - last;
  last = m;
  return d;
}

}  // namespace swcc::test
