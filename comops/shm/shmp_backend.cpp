// The shmp backend: the shm schemes and op code run by MPI processes of one node, which share
// MPI-3 windows (MPI_Win_allocate_shared) instead of a process's heap; one backend per scheme.
#include <fmt/format.h>
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "comops/mpi_common/mpi_comm.hpp"
#include "comops/mpi_common/process_backend.hpp"
#include "comops/shm/backend.hpp"
#include "comops/shm/process_comm.hpp"
#include "comops/shm/process_space.hpp"
#include "comops/shm/scheme_option.hpp"
#include "comops/shm/shm_op.hpp"
#include "comops/shm/team.hpp"

namespace comops {
namespace {

class ShmpBackend final : public Backend {
 public:
  ShmpBackend(shm::Scheme scheme, std::size_t window_max)
      : scheme_(scheme), window_max_(window_max) {}

  std::string label() const override { return fmt::format("shmp-{}", shm::scheme_name(scheme_)); }
  Participants participants() const override { return Participants::kProcesses; }
  bool node_local() const override { return true; }
  OpTable ops() const override { return shm::op_table(scheme_); }

  int max_participants() const override { return mpi::world_size_or_one(); }

  // The group's processes (the harness places them on node 0) form a team over their node's
  // communicator. A failure they all raise together (AgreedError) comes out of spmd on every one;
  // any other leaves the others waiting on a flag that nothing but the job's end can release:
  // one line, then MPI_Abort with comops' run-time code, as the mpi backend does.
  using Backend::spmd;
  void spmd(const Group& group, const std::function<void(Comm&)>& body) override {
    MPI_Comm participants = comms_.get(group);
    if (participants == MPI_COMM_NULL) return;
    mpi::run_agreed_or_abort("shmp", [&] {
      shm::NodeComm node(participants);
      shm::ProcessSpace space(node.handle(), window_max_);
      shm::Team team(group.size(), space, node.rank());
      shm::ProcessComm comm(team, node.rank(), node.handle(), space);
      body(comm);
    });
  }

  nlohmann::json context() const override {
    return {{"scheme", std::string(shm::scheme_name(scheme_))},
            {"participants",
             "MPI processes of node 0 (MPI_Comm_split_type MPI_COMM_TYPE_SHARED of a point's "
             "ranks)"},
            {"memory",
             "MPI_Win_allocate_shared windows (MPI_WIN_UNIFIED) in a MPI_Win_lock_all epoch; "
             "flags are C++ atomics in them, MPI_Win_sync around the set-up barriers"},
            {"window_max_bytes", window_max_}};
  }

 private:
  shm::Scheme scheme_;
  std::size_t window_max_;
  mpi::SubComms comms_;
};

class ShmpFamily final : public BackendFamily {
 public:
  std::string name() const override { return "shmp"; }
  std::string description() const override {
    return "MPI processes of one node through MPI-3 shared windows, the shm schemes and op code "
           "(schemes: staged, direct; on several nodes node 0's ranks)";
  }
  bool needs_processes() const override { return true; }

  void add_options(CLI::App& app) override {
    app.add_option("--shmp-scheme", schemes_, std::string("shmp schemes, ") + shm::kSchemeHelp)
        ->delimiter(',')
        ->capture_default_str()
        ->type_name("LIST")
        ->group("shmp backend");
    app.add_option("--shmp-window-max", window_max_text_, shm::kWindowMaxHelp)
        ->capture_default_str()
        ->type_name("SIZE")
        ->group("shmp backend");
  }

  void validate() const override {
    shm::parse_schemes("--shmp-scheme", schemes_);
    window_max();
  }

  std::vector<std::unique_ptr<Backend>> create() override {
    std::vector<std::unique_ptr<Backend>> out;
    const std::size_t max = window_max();
    for (shm::Scheme scheme : shm::parse_schemes("--shmp-scheme", schemes_))
      out.push_back(std::make_unique<ShmpBackend>(scheme, max));
    return out;
  }

 private:
  // --shmp-window-max in bytes; throws UsageError for a bad size or one under a page.
  std::size_t window_max() const {
    return shm::parse_window_max("--shmp-window-max", window_max_text_);
  }

  std::vector<std::string> schemes_{"staged", "direct"};
  std::string window_max_text_ = "4G";  // shm::kDefaultWindowMaxBytes
};

}  // namespace

std::unique_ptr<BackendFamily> make_shmp_family() { return std::make_unique<ShmpFamily>(); }

}  // namespace comops
