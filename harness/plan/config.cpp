// Defaults that depend on the machine or the MPI world, and the checks that need them.
#include "harness/plan/config.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "harness/ops/op_queries.hpp"

namespace comops {

int max_np(const Config& c) {
  int n = c.size_np;
  for (int np : c.np_list) n = std::max(n, np);
  return n;
}

bool np_tables(const Config& c) { return c.np_bytes_given || c.np_list.size() > 1; }

void check_output_dir(const Config& c) {
  if (c.out.dir.empty()) return;
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status status = fs::status(c.out.dir, ec);
  if (!fs::exists(status)) return;  // created when the outputs open
  if (!fs::is_directory(status))
    throw UsageError(fmt::format("--output-dir {} exists and is not a directory", c.out.dir));
  if (c.force) return;
  const fs::directory_iterator first(c.out.dir, ec);
  if (ec)
    throw UsageError(fmt::format("--output-dir {} cannot be read: {}", c.out.dir, ec.message()));
  if (first != fs::directory_iterator())
    throw UsageError(
        fmt::format("--output-dir {} is not empty (--force writes into it, replacing comops' "
                    "files there; or choose another directory)",
                    c.out.dir));
}

void finalize_config(Config& c, int world_size, bool launched, bool process_backends, int cores) {
  if (!c.np_given) {
    // Powers of two from 2 up to the world (under a launcher) or the core count, and that count.
    const int top = std::max(2, launched && world_size > 1 ? world_size : cores);
    c.np_list.clear();
    for (int n = 2; n <= top; n *= 2) c.np_list.push_back(n);
    if (c.np_list.back() != top) c.np_list.push_back(top);
  }
  std::sort(c.np_list.begin(), c.np_list.end());
  c.np_list.erase(std::unique(c.np_list.begin(), c.np_list.end()), c.np_list.end());
  if (c.size_np == 0) {
    // The paper drew bandwidth versus size at 4 processors: the largest np up to 4.
    c.size_np = c.np_list.front();
    for (int n : c.np_list)
      if (n <= 4) c.size_np = n;
  }
  for (OpKind op : c.ops) {
    const int low = std::min(c.np_list.front(), c.size_np);
    if (low < op_min_np(op))
      throw UsageError(fmt::format("{} needs at least {} participants, but np={} was asked for",
                                   op_name(op), op_min_np(op), low));
  }
  const int need = max_np(c);
  if (process_backends && launched && need > world_size)
    throw UsageError(fmt::format(
        "np={} needs {} MPI processes but comops was started with {} (use mpiexec -n {}, or run "
        "comops directly and it launches itself)",
        need, need, world_size, need));
}

}  // namespace comops
