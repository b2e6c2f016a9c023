// The mpi backend: participants are the first np MPI world ranks on a cached sub-communicator.
#include "comops/mpi/backend.hpp"

#include <mpi.h>

#include "comops/mpi/ops.hpp"
#include "comops/mpi_common/process_backend.hpp"

namespace comops {
namespace {

class MpiBackend final : public mpi::ProcessBackend<mpi::MpiComm> {
 public:
  std::string label() const override { return "mpi"; }

  OpTable ops() const override { return mpi::op_table(); }

  nlohmann::json context() const override {
    int major = 0, minor = 0;
    MPI_Get_version(&major, &minor);
    return {{"mpi_standard", std::to_string(major) + "." + std::to_string(minor)},
            {"datatypes", "MPI_BYTE for data movement, MPI_INT64_T for reductions"}};
  }
};

class MpiFamily final : public BackendFamily {
 public:
  std::string name() const override { return "mpi"; }
  std::string description() const override {
    return "MPI processes: MPI_Send/MPI_Recv ping-pong and the MPI collectives";
  }
  bool needs_processes() const override { return true; }
  std::vector<std::unique_ptr<Backend>> create() override {
    std::vector<std::unique_ptr<Backend>> v;
    v.push_back(std::make_unique<MpiBackend>());
    return v;
  }
};

}  // namespace

std::unique_ptr<BackendFamily> make_mpi_family() { return std::make_unique<MpiFamily>(); }

}  // namespace comops
