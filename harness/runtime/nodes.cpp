// Node discovery over MPI and the pure node map built from per-rank facts.
#include "harness/runtime/nodes.hpp"

#include <fmt/format.h>
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <map>

#include "comops/op.hpp"

namespace comops {
namespace {

constexpr int kHostChars = 256;

std::string host_name() {
  char buf[kHostChars] = {};
  ::gethostname(buf, sizeof buf - 1);
  return buf;
}

// Every rank's string of a communicator, in rank order (fixed-width exchange).
std::vector<std::string> allgather_strings(const std::string& mine, MPI_Comm comm) {
  int n = 0;
  MPI_Comm_size(comm, &n);
  int len = static_cast<int>(mine.size()), longest = 0;
  MPI_Allreduce(&len, &longest, 1, MPI_INT, MPI_MAX, comm);
  const int width = longest + 1;
  std::vector<char> send(static_cast<std::size_t>(width), '\0');
  std::copy(mine.begin(), mine.end(), send.begin());
  std::vector<char> all(static_cast<std::size_t>(width) * static_cast<std::size_t>(n), '\0');
  MPI_Allgather(send.data(), width, MPI_CHAR, all.data(), width, MPI_CHAR, comm);
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) out.emplace_back(all.data() + static_cast<std::size_t>(i) * width);
  return out;
}

std::vector<int> allgather_int(int mine, MPI_Comm comm) {
  int n = 0;
  MPI_Comm_size(comm, &n);
  std::vector<int> all(static_cast<std::size_t>(n));
  MPI_Allgather(&mine, 1, MPI_INT, all.data(), 1, MPI_INT, comm);
  return all;
}

}  // namespace

int NodeMap::local_rank(int r) const {
  const auto& list =
      ranks.at(static_cast<std::size_t>(node_of_rank.at(static_cast<std::size_t>(r))));
  return static_cast<int>(std::find(list.begin(), list.end(), r) - list.begin());
}

const std::string& NodeMap::host_of_rank(int r) const {
  return host.at(static_cast<std::size_t>(node_of_rank.at(static_cast<std::size_t>(r))));
}

NodeMap make_node_map(const std::vector<int>& label_of_rank, const std::vector<std::string>& hosts,
                      const std::vector<int>& pids, const std::vector<int>& node_cores) {
  const std::size_t n = label_of_rank.size();
  if (n == 0 || hosts.size() != n || pids.size() != n || node_cores.size() != n)
    throw RuntimeError("node map: per-rank facts of different lengths");
  NodeMap m;
  m.pid_of_rank = pids;
  m.node_of_rank.assign(n, -1);
  std::map<int, int> id_of_label;  // labels in order of their lowest rank
  for (std::size_t r = 0; r < n; ++r) {
    auto [it, fresh] = id_of_label.try_emplace(label_of_rank[r], m.nodes());
    if (fresh) {
      m.ranks.emplace_back();
      m.host.push_back(hosts[r]);
      m.cores.push_back(node_cores[r]);
    }
    m.node_of_rank[r] = it->second;
    m.ranks[static_cast<std::size_t>(it->second)].push_back(static_cast<int>(r));
  }
  return m;
}

NodeMap discover_nodes(const Pinning& pinning) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  // The node's label is its lowest world rank; its cores are the union of its ranks' cpusets.
  int leader = rank;
  MPI_Bcast(&leader, 1, MPI_INT, 0, node);
  const int cores = pinning.cores_in_union(allgather_strings(pinning.allowed_list(), node));
  MPI_Comm_free(&node);
  return make_node_map(allgather_int(leader, MPI_COMM_WORLD),
                       allgather_strings(host_name(), MPI_COMM_WORLD),
                       allgather_int(static_cast<int>(::getpid()), MPI_COMM_WORLD),
                       allgather_int(cores, MPI_COMM_WORLD));
}

}  // namespace comops
