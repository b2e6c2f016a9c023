// The swcc backend family: options (--block-size, --uncached), one configured backend per block
// size (and sc), participants on per-np sub-communicators of MPI_COMM_WORLD.
#include "comops/swcc/backend.hpp"

#include <fmt/format.h>
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <functional>
#include <string>

#include "comops/mpi_common/process_backend.hpp"
#include "comops/swcc/dsm_errors.hpp"
#include "comops/swcc/dsm_op.hpp"
#include "comops/swcc/swcc_comm.hpp"

namespace comops {
namespace {

using swcc::OpConfig;

class SwccBackend final : public mpi::ProcessBackend<swcc::SwccComm> {
 public:
  explicit SwccBackend(OpConfig cfg) : cfg_(cfg) {}

  // The boundary of the DSM library: its errors become comops's before the participant layer
  // sees them (and tells the other participants).
  using ProcessBackend::spmd;
  void spmd(const Group& group, const std::function<void(Comm&)>& body) override {
    ProcessBackend::spmd(group,
                         [&](Comm& comm) { swcc::translate_dsm_errors([&] { body(comm); }); });
  }
  std::string label() const override {
    return cfg_.uncached ? "swcc-sc" : fmt::format("swcc-{}", cfg_.block_bytes);
  }

  OpTable ops() const override { return swcc::op_table(cfg_); }

  nlohmann::json context() const override {
    return {{"dsm", "SWCC-Split-C style software cache coherence over MPI point-to-point"},
            {"mode", cfg_.uncached ? "sc (uncached: every remote access goes to the home)"
                                   : "cached (MSI invalidation, home-serialised)"},
            {"block_bytes", cfg_.uncached ? 0 : cfg_.block_bytes},
            {"directory_entry_bytes", sizeof(::swcc::Entry)}};
  }

 private:
  OpConfig cfg_;
};

class SwccFamily final : public BackendFamily {
 public:
  std::string name() const override { return "swcc"; }
  std::string description() const override {
    return "software cache-coherent DSM over MPI (SWCC-Split-C): ops as shared-memory programs";
  }
  bool needs_processes() const override { return true; }
  void add_options(CLI::App& app) override {
    app.add_option(
           "--block-size", block_sizes_,
           fmt::format("swcc coherence block sizes in bytes ({})", ::swcc::block_sizes_text(",")))
        ->delimiter(',')
        ->default_str(std::to_string(::swcc::kDefaultBlockBytes))
        ->type_name("LIST")
        ->group("swcc backend");
    app.add_flag("--uncached", uncached_, "swcc: also run the uncached sc mode (swcc-sc)")
        ->group("swcc backend");
    // Hidden, for tests: broadcast and scatter without their closing barrier.
    app.add_flag("--swcc-drop-closing-barrier", drop_closing_barrier_)->group("");
  }
  void validate() const override {
    for (const std::string& s : block_sizes_) {
      std::size_t b = 0;
      try {
        std::size_t used = 0;
        b = std::stoul(s, &used);
        if (used != s.size()) b = 0;
      } catch (...) {
        b = 0;
      }
      if (!::swcc::valid_block_bytes(b))
        throw UsageError(
            fmt::format("--block-size: '{}' is not one of {}", s, ::swcc::block_sizes_text()));
    }
  }
  std::vector<std::unique_ptr<Backend>> create() override {
    validate();
    std::vector<std::unique_ptr<Backend>> v;
    std::vector<std::string> sizes =
        block_sizes_.empty() ? std::vector<std::string>{std::to_string(::swcc::kDefaultBlockBytes)}
                             : block_sizes_;
    for (const std::string& s : sizes)
      v.push_back(
          std::make_unique<SwccBackend>(OpConfig{std::stoul(s), false, drop_closing_barrier_}));
    if (uncached_)
      v.push_back(std::make_unique<SwccBackend>(
          OpConfig{::swcc::kDefaultBlockBytes, true, drop_closing_barrier_}));
    return v;
  }

 private:
  std::vector<std::string> block_sizes_;
  bool uncached_ = false;
  bool drop_closing_barrier_ = false;
};

}  // namespace

std::unique_ptr<BackendFamily> make_swcc_family() { return std::make_unique<SwccFamily>(); }

}  // namespace comops
