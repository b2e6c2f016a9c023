// hwloc topology, core selection by policy, and per-thread binding.
#include "harness/runtime/pinning.hpp"

#include <fmt/format.h>

#include <cstdlib>

#include "comops/op.hpp"

namespace comops {

BindPolicy parse_bind_policy(const std::string& name) {
  if (name == "compact") return BindPolicy::kCompact;
  if (name == "spread") return BindPolicy::kSpread;
  if (name == "none") return BindPolicy::kNone;
  throw UsageError(fmt::format("unknown --bind '{}' (expected compact, spread or none)", name));
}

std::string bind_policy_name(BindPolicy policy) {
  switch (policy) {
    case BindPolicy::kCompact:
      return "compact";
    case BindPolicy::kSpread:
      return "spread";
    case BindPolicy::kNone:
      break;
  }
  return "none";
}

namespace {

// The allowed cores, in logical order.
std::vector<hwloc_obj_t> allowed_cores(hwloc_topology_t topo, hwloc_const_cpuset_t allowed) {
  std::vector<hwloc_obj_t> cores;
  hwloc_obj_t core = nullptr;
  while ((core = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_CORE, core)) != nullptr)
    if (hwloc_bitmap_intersects(core->cpuset, allowed)) cores.push_back(core);
  if (cores.empty()) {  // no core objects (some VMs): fall back to PUs
    hwloc_obj_t pu = nullptr;
    while ((pu = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_PU, pu)) != nullptr)
      if (hwloc_bitmap_isset(allowed, pu->os_index)) cores.push_back(pu);
  }
  return cores;
}

}  // namespace

Pinning::Pinning(BindPolicy policy) : policy_(policy) {
  if (hwloc_topology_init(&topo_) != 0 || hwloc_topology_load(topo_) != 0)
    throw RuntimeError("hwloc could not load the machine topology");
  allowed_ = hwloc_bitmap_alloc();
  // What this process may run on: its binding at start (a batch system's cpuset included).
  if (hwloc_get_cpubind(topo_, allowed_, HWLOC_CPUBIND_PROCESS) != 0 ||
      hwloc_bitmap_iszero(allowed_))
    hwloc_bitmap_copy(allowed_, hwloc_topology_get_allowed_cpuset(topo_));
}

Pinning::~Pinning() {
  hwloc_bitmap_free(allowed_);
  hwloc_topology_destroy(topo_);
}

int Pinning::cores() const { return static_cast<int>(allowed_cores(topo_, allowed_).size()); }

int Pinning::pus() const { return hwloc_bitmap_weight(allowed_); }

int Pinning::core_for(int index, int np) const {
  if (policy_ == BindPolicy::kNone) return -1;
  const int n = cores();
  if (policy_ == BindPolicy::kSpread && np <= n)
    return static_cast<int>(static_cast<long long>(index) * n / np);
  return index % n;
}

int Pinning::bind_self(int index, int np) const {
  const int core = core_for(index, np);
  return core < 0 ? -1 : bind_self_to_core(core);
}

int Pinning::bind_self_to_core(int core) const {
  const auto list = allowed_cores(topo_, allowed_);
  hwloc_obj_t obj = list[static_cast<std::size_t>(core) % list.size()];
  hwloc_cpuset_t set = hwloc_bitmap_dup(obj->cpuset);
  hwloc_bitmap_and(set, set, allowed_);
  const int rc = hwloc_set_cpubind(topo_, set, HWLOC_CPUBIND_THREAD);
  const int first_cpu = hwloc_bitmap_first(set);
  hwloc_bitmap_free(set);
  if (rc != 0)
    throw RuntimeError(fmt::format("hwloc could not bind a participant to core {}", core));
  return first_cpu;
}

std::string Pinning::allowed_list() const {
  char* text = nullptr;
  hwloc_bitmap_list_asprintf(&text, allowed_);
  std::string out = text != nullptr ? text : "";
  std::free(text);
  return out;
}

int Pinning::cores_in_union(const std::vector<std::string>& pu_lists) const {
  hwloc_bitmap_t all = hwloc_bitmap_alloc(), one = hwloc_bitmap_alloc();
  for (const auto& list : pu_lists)
    if (hwloc_bitmap_list_sscanf(one, list.c_str()) == 0) hwloc_bitmap_or(all, all, one);
  const int n = static_cast<int>(allowed_cores(topo_, all).size());
  hwloc_bitmap_free(one);
  hwloc_bitmap_free(all);
  return n;
}

void Pinning::unbind_self() const { hwloc_set_cpubind(topo_, allowed_, HWLOC_CPUBIND_THREAD); }

nlohmann::json Pinning::summary() const {
  auto count = [&](hwloc_obj_type_t t) { return hwloc_get_nbobjs_by_type(topo_, t); };
  const int packages = count(HWLOC_OBJ_PACKAGE);
  const int numa = count(HWLOC_OBJ_NUMANODE);
  hwloc_obj_t root = hwloc_get_root_obj(topo_);
  const char* model = hwloc_obj_get_info_by_name(root, "CPUModel");
  if (model == nullptr) {
    hwloc_obj_t pkg = hwloc_get_obj_by_type(topo_, HWLOC_OBJ_PACKAGE, 0);
    if (pkg != nullptr) model = hwloc_obj_get_info_by_name(pkg, "CPUModel");
  }
  char allowed[256];
  hwloc_bitmap_list_snprintf(allowed, sizeof allowed, allowed_);
  return {
      {"packages", packages},
      {"numa_nodes", numa},
      {"cores", cores()},
      {"pus", pus()},
      {"cpu_model", model != nullptr ? model : "unknown"},
      {"allowed_cpus", allowed},
      {"summary", fmt::format("{} package(s), {} NUMA node(s), {} core(s), {} PU(s), {}", packages,
                              numa, cores(), pus(), model != nullptr ? model : "unknown CPU")}};
}

}  // namespace comops
