// Binding participants (processes or threads) to cores with hwloc, and the topology facts.
#pragma once

#include <hwloc.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace comops {

/// How participants are placed on cores.
enum class BindPolicy { kCompact, kSpread, kNone };

BindPolicy parse_bind_policy(const std::string& name);  ///< throws UsageError
std::string bind_policy_name(BindPolicy policy);

/// The machine's topology (loaded once per process) and the binding of the calling thread.
class Pinning {
 public:
  explicit Pinning(BindPolicy policy);
  ~Pinning();
  Pinning(const Pinning&) = delete;
  Pinning& operator=(const Pinning&) = delete;

  BindPolicy policy() const { return policy_; }
  int cores() const;  ///< cores this process may run on
  int pus() const;    ///< hardware threads this process may run on

  /// The logical core index participant `index` of `np` goes to (-1 with kNone).
  int core_for(int index, int np) const;

  /// Binds the calling thread to core_for(index, np) and returns that core (-1 with kNone).
  /// Thread-safe: each participant thread calls it for itself.
  int bind_self(int index, int np) const;

  /// Binds the calling thread to logical core `core` (modulo cores()); returns it.
  int bind_self_to_core(int core) const;

  /// Undoes bind_self for the calling thread (back to the whole allowed set).
  void unbind_self() const;

  /// The PUs this process may run on, as an hwloc list ("0-3,8").
  std::string allowed_list() const;

  /// Cores of this machine that intersect the union of the PU lists (what the ranks of one node
  /// may use together); a list that does not parse counts as empty.
  int cores_in_union(const std::vector<std::string>& pu_lists) const;

  /// Packages, NUMA nodes, cores, PUs and a one-line summary for the JSON context.
  nlohmann::json summary() const;

 private:
  BindPolicy policy_;
  hwloc_topology_t topo_ = nullptr;
  hwloc_cpuset_t allowed_ = nullptr;
};

}  // namespace comops
