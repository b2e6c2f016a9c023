// The bare MPI loops comops' mpi numbers are held against: MPI_Send/MPI_Recv ping-pong,
// MPI_Bcast and MPI_Reduce(MPI_MAX), timed exactly as the harness times them (warm-up, back-to-
// back iterations, repetitions, max over ranks, median over repetitions), with nothing else.
// Usage: mpiexec -n 2 bare_mpi_loop OP BYTES ITERS WARMUP REPS   (OP: pingpong, bcast, reduce)
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 6) {
    if (rank == 0) std::fprintf(stderr, "usage: bare_mpi_loop OP BYTES ITERS WARMUP REPS\n");
    MPI_Finalize();
    return 2;
  }
  const std::string op = argv[1];
  const int bytes = std::atoi(argv[2]), iters = std::atoi(argv[3]), warmup = std::atoi(argv[4]),
            reps = std::atoi(argv[5]);
  const std::size_t alloc = (static_cast<std::size_t>(bytes) + 4095) / 4096 * 4096;
  auto* send = static_cast<std::int64_t*>(std::aligned_alloc(4096, alloc));
  auto* recv = static_cast<std::int64_t*>(std::aligned_alloc(4096, alloc));
  std::memset(send, 1, alloc);
  std::memset(recv, 0, alloc);
  const int count = bytes / 8;

  auto once = [&] {
    if (op == "pingpong") {
      if (rank == 0) {
        MPI_Send(send, bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
        MPI_Recv(recv, bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else if (rank == 1) {
        MPI_Recv(recv, bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(send, bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
      }
    } else if (op == "bcast") {
      MPI_Bcast(rank == 0 ? send : recv, bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
    } else {
      MPI_Reduce(send, recv, count, MPI_INT64_T, MPI_MAX, 0, MPI_COMM_WORLD);
    }
  };

  for (int i = 0; i < warmup; ++i) once();
  std::vector<double> per_rep(static_cast<std::size_t>(reps));
  for (int r = 0; r < reps; ++r) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    for (int i = 0; i < iters; ++i) once();
    per_rep[static_cast<std::size_t>(r)] = (MPI_Wtime() - t0) * 1e6 / iters;
  }
  std::vector<double> maxs(per_rep.size());
  MPI_Reduce(per_rep.data(), maxs.data(), reps, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    std::sort(maxs.begin(), maxs.end());
    const double med = reps % 2 ? maxs[reps / 2] : (maxs[reps / 2 - 1] + maxs[reps / 2]) / 2;
    std::printf("%s %d bytes: %.4f us per iteration (median of %d x %d)\n", op.c_str(), bytes, med,
                reps, iters);
  }
  std::free(send);
  std::free(recv);
  MPI_Finalize();
  return 0;
}
