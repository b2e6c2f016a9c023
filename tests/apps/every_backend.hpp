// What the application tests share: every configured backend (mpi, shm staged and direct, swcc
// at block sizes 8, 64, 4096 and sc) and the short measurement they run an app point with.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "comops/mpi/backend.hpp"
#include "comops/shm/backend.hpp"
#include "comops/swcc/backend.hpp"
#include "harness/measure/measure.hpp"
#include "tests/op_test_util.hpp"

namespace comops::test {

/// The configured backends of a family with the options `argv`.
inline std::vector<std::unique_ptr<Backend>> create(std::unique_ptr<BackendFamily> family,
                                                    std::vector<std::string> argv) {
  CLI::App app;
  family->add_options(app);
  std::vector<std::string> rev(argv.rbegin(), argv.rend());
  app.parse(rev);
  family->validate();
  return family->create();
}

/// mpi, shm-staged, shm-direct, swcc-8, swcc-64, swcc-4096 and swcc-sc.
inline std::vector<std::unique_ptr<Backend>> every_backend() {
  std::vector<std::unique_ptr<Backend>> all;
  for (auto& b : create(make_mpi_family(), {})) all.push_back(std::move(b));
  for (auto& b : create(make_shm_family(), {"--scheme=staged,direct"})) all.push_back(std::move(b));
  for (auto& b : create(make_swcc_family(), {"--block-size=8,64,4096", "--uncached"}))
    all.push_back(std::move(b));
  return all;
}

/// Two timed iterations after one warm-up, one repetition (an application's point is long);
/// `fault`: corrupt one result.
inline MeasureOptions app_quick(bool fault) { return test::quick(fault, 2, 1); }

}  // namespace comops::test
