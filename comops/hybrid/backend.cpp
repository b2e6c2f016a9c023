// The hybrid backend: a point's MPI processes grouped into nodes (the processes MPI sees sharing
// memory, or runs of --hybrid-node-size ranks), each node a shm process team over MPI-3 windows,
// one leader per node talking MPI to the others.
#include "comops/hybrid/backend.hpp"

#include <fmt/format.h>
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <string>

#include "comops/hybrid/hybrid_comm.hpp"
#include "comops/hybrid/hybrid_op.hpp"
#include "comops/mpi_common/process_backend.hpp"
#include "comops/shm/scheme_option.hpp"

namespace comops {
namespace {

class HybridBackend final : public Backend {
 public:
  HybridBackend(int node_size, std::size_t window_max)
      : node_size_(node_size), window_max_(window_max) {}

  std::string label() const override { return "hybrid"; }
  Participants participants() const override { return Participants::kProcesses; }
  bool node_local() const override { return false; }
  OpTable ops() const override { return hybrid::op_table(); }

  int max_participants() const override { return mpi::world_size_or_one(); }

  // A failure every participant raises together (AgreedError: a window past the cap on some node)
  // comes out of spmd everywhere; any other leaves the others waiting on a flag or in an MPI call
  // that nothing but the job's end can release: one line, then MPI_Abort with exit code 3.
  using Backend::spmd;
  void spmd(const Group& group, const std::function<void(Comm&)>& body) override {
    MPI_Comm participants = comms_.get(group);
    if (participants == MPI_COMM_NULL) return;
    mpi::run_agreed_or_abort("hybrid", [&] {
      hybrid::HybridComm comm(participants, node_size_, window_max_);
      body(comm);
    });
  }

  nlohmann::json context() const override {
    return {{"levels",
             "two: shared memory inside a node (a process team over MPI_Win_allocate_shared "
             "windows, C++ atomics as flags), MPI between one leader per node (the node's lowest "
             "rank)"},
            {"nodes", node_size_ == 0
                          ? std::string("the processes MPI sees sharing memory "
                                        "(MPI_Comm_split_type MPI_COMM_TYPE_SHARED)")
                          : fmt::format("runs of {} consecutive ranks within each node MPI sees "
                                        "(--hybrid-node-size)",
                                        node_size_)},
            {"node_size", node_size_},
            {"window_max_bytes", window_max_}};
  }

 private:
  int node_size_;
  std::size_t window_max_;
  mpi::SubComms comms_;
};

class HybridFamily final : public BackendFamily {
 public:
  std::string name() const override { return "hybrid"; }
  std::string description() const override {
    return "MPI processes over one or more nodes: shared memory (MPI-3 windows) inside a node, "
           "MPI between one leader per node";
  }
  bool needs_processes() const override { return true; }

  void add_options(CLI::App& app) override {
    app.add_option("--hybrid-node-size", node_size_,
                   "Ranks per node of the hybrid backend: 0 = the nodes MPI sees; N > 0 = runs of "
                   "N consecutive ranks within each (two levels studied on one machine)")
        ->capture_default_str()
        ->type_name("N")
        ->group("hybrid backend");
    app.add_option("--hybrid-window-max", window_max_text_, shm::kWindowMaxHelp)
        ->capture_default_str()
        ->type_name("SIZE")
        ->group("hybrid backend");
  }

  void validate() const override {
    if (node_size_ < 0)
      throw UsageError(fmt::format(
          "--hybrid-node-size must be 0 (the nodes MPI sees) or a number of ranks, not {}",
          node_size_));
    shm::parse_window_max("--hybrid-window-max", window_max_text_);
  }

  std::vector<std::unique_ptr<Backend>> create() override {
    validate();
    std::vector<std::unique_ptr<Backend>> out;
    out.push_back(std::make_unique<HybridBackend>(
        node_size_, shm::parse_window_max("--hybrid-window-max", window_max_text_)));
    return out;
  }

 private:
  int node_size_ = 0;
  std::string window_max_text_ = "4G";  // shm::kDefaultWindowMaxBytes
};

}  // namespace

std::unique_ptr<BackendFamily> make_hybrid_family() { return std::make_unique<HybridFamily>(); }

}  // namespace comops
