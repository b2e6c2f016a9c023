// EM3D as a hand-written MPI program: ghost lists built once, ghost values exchanged point to
// point before each half-step (see mpi_kernel.hpp).
#include "comops/apps/em3d/mpi_kernel.hpp"

#include <algorithm>
#include <map>

namespace comops::em3d {
namespace {

constexpr int kTagH = 0x3d01;  // H values (before an E half-step)
constexpr int kTagE = 0x3d02;  // E values (before an H half-step)

}  // namespace

MpiKernel::MpiKernel(MPI_Comm comm, const Params& p, std::uint64_t graph_seed)
    : KernelRun(p), comm_(comm) {
  MPI_Comm_rank(comm, &me_);
  MPI_Comm_size(comm, &np_);
  const Part part = make_part(p, np_, graph_seed, me_);
  build(part.e, h_halo_, e_edges_);
  build(part.h, e_halo_, h_edges_);
  e_.assign(p.nodes + ghost_count(Kind::kH), 0);  // H nodes read E values
  h_.assign(p.nodes + ghost_count(Kind::kE), 0);  // E nodes read H values
}

void MpiKernel::build(const Side& side, Halo& halo, std::vector<Edge>& local_edges) {
  // The distinct remote sources, by owner then index; each gets a ghost slot in that order.
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> slot;
  for (const Edge& e : side.edges)
    if (e.owner != static_cast<std::uint32_t>(me_)) slot.emplace(std::pair{e.owner, e.index}, 0);
  std::vector<int> need(np_, 0);
  std::vector<std::uint32_t> want;  // indices wanted, owner by owner
  std::uint32_t next = static_cast<std::uint32_t>(p_.nodes);
  for (auto& [key, s] : slot) {
    s = next++;
    ++need[key.first];
    want.push_back(key.second);
  }
  local_edges = side.edges;
  for (Edge& e : local_edges) {
    if (e.owner != static_cast<std::uint32_t>(me_)) e.index = slot.at({e.owner, e.index});
    e.owner = static_cast<std::uint32_t>(me_);
  }

  // Who needs what from me: counts, then the indices.
  std::vector<int> give(np_, 0);
  MPI_Alltoall(need.data(), 1, MPI_INT, give.data(), 1, MPI_INT, comm_);
  std::vector<int> need_displs(np_, 0), give_displs(np_, 0);
  for (int q = 1; q < np_; ++q) {
    need_displs[q] = need_displs[q - 1] + need[q - 1];
    give_displs[q] = give_displs[q - 1] + give[q - 1];
  }
  std::vector<std::uint32_t> give_index(give_displs.back() + give.back());
  MPI_Alltoallv(want.data(), need.data(), need_displs.data(), MPI_UINT32_T, give_index.data(),
                give.data(), give_displs.data(), MPI_UINT32_T, comm_);

  for (int q = 0; q < np_; ++q) {
    if (need[q] > 0) {
      halo.recv_peers.push_back(q);
      halo.recv_counts.push_back(need[q]);
      halo.recv_displs.push_back(need_displs[q]);
    }
    if (give[q] > 0) {
      halo.send_peers.push_back(q);
      halo.send_counts.push_back(give[q]);
      halo.send_displs.push_back(give_displs[q]);
    }
  }
  halo.send_index = std::move(give_index);
  halo.send_buf.resize(halo.send_index.size());
  halo.requests.resize(halo.recv_peers.size() + halo.send_peers.size());
}

std::size_t MpiKernel::ghost_count(Kind k) const {
  const Halo& h = k == Kind::kE ? h_halo_ : e_halo_;
  std::size_t n = 0;
  for (int c : h.recv_counts) n += c;
  return n;
}

std::size_t MpiKernel::messages_per_iteration() const {
  return h_halo_.send_peers.size() + e_halo_.send_peers.size();
}

void MpiKernel::reset(const std::uint64_t* e0, const std::uint64_t* h0) {
  std::copy(e0, e0 + p_.nodes, e_.begin());
  std::copy(h0, h0 + p_.nodes, h_.begin());
}

void MpiKernel::exchange(Halo& halo, std::vector<std::uint64_t>& source, int tag) {
  std::size_t r = 0;
  for (std::size_t i = 0; i < halo.recv_peers.size(); ++i)
    MPI_Irecv(source.data() + p_.nodes + halo.recv_displs[i], halo.recv_counts[i], MPI_UINT64_T,
              halo.recv_peers[i], tag, comm_, &halo.requests[r++]);
  for (std::size_t k = 0; k < halo.send_index.size(); ++k)
    halo.send_buf[k] = source[halo.send_index[k]];
  for (std::size_t i = 0; i < halo.send_peers.size(); ++i)
    MPI_Isend(halo.send_buf.data() + halo.send_displs[i], halo.send_counts[i], MPI_UINT64_T,
              halo.send_peers[i], tag, comm_, &halo.requests[r++]);
  MPI_Waitall(static_cast<int>(r), halo.requests.data(), MPI_STATUSES_IGNORE);
}

void MpiKernel::half_step(const std::vector<Edge>& edges, std::vector<std::uint64_t>& to,
                          const std::vector<std::uint64_t>& from) {
  const std::size_t degree = p_.degree;
  for (std::size_t i = 0; i < p_.nodes; ++i)
    to[i] = update(to[i], &edges[i * degree], degree, [&](const Edge& e) { return from[e.index]; });
}

void MpiKernel::iterate(std::size_t iters) {
  for (std::size_t it = 0; it < iters; ++it) {
    exchange(h_halo_, h_, kTagH);
    half_step(e_edges_, e_, h_);
    exchange(e_halo_, e_, kTagE);
    half_step(h_edges_, h_, e_);
  }
}

void MpiKernel::values(std::uint64_t* e, std::uint64_t* h) const {
  std::copy(e_.begin(), e_.begin() + static_cast<std::ptrdiff_t>(p_.nodes), e);
  std::copy(h_.begin(), h_.begin() + static_cast<std::ptrdiff_t>(p_.nodes), h);
}

}  // namespace comops::em3d
