// MPI_Finalize without MPICH 4.0.2's deadlock-prone UCX endpoint disconnect over TCP.
//
// MPICH 4.0.2 (ch4:ucx, Debian 12) finalizes by calling ucp_disconnect_nb() on every endpoint,
// progressing until all complete, then entering a PMI barrier that no longer progresses UCX. Over
// UCX 1.13's TCP transport, every active message sets UCT_TCP_EP_FLAG_NEED_FLUSH on the endpoint,
// and flushing such an endpoint sends a zero-length PUT request and waits for the peer's PUT ACK.
// A peer whose own disconnects are already done sits in the PMI barrier and never reads it: the
// 25 unread bytes (5-byte AM header + 20-byte PUT request) show in its socket's Recv-Q, and the
// job hangs. A barrier before finalize narrows the window but cannot close it: some rank always
// acknowledges a flush (which sets NEED_FLUSH on its side again) before it enters finalize.
// Fixed upstream by MPICH pull request 6596 (PMI barrier before the disconnect); no MPICH CVAR or
// UCX variable of these versions changes the close mode (UCX_TCP_PUT_ENABLE=n does not: the flush
// PUT is sent regardless).
//
// So comops interposes ucp_disconnect_nb: libmpich resolves it through the executable's dynamic
// symbols first, and while finalize_mpi() runs it returns UCS_OK (NULL) without closing; MPICH then
// passes its PMI barrier and ucp_worker_destroy() closes the endpoints. Skipping the flush is safe
// because the MPI_Barrier just before means every rank has completed every receive, and the only
// bytes still moving are that barrier's last few-byte messages, which the kernel accepted whole
// into idle sockets. Outside finalize_mpi() (and with COMOPS_FINALIZE_DISCONNECT=1) the call goes
// to UCX unchanged; with an MPI that does not use UCX the function is never called.
#include "harness/runtime/finalize.hpp"

#include <dlfcn.h>
#include <mpi.h>

#include <atomic>
#include <cstdlib>
#include <cstring>

namespace {

std::atomic<bool> skip_disconnect{false};

}  // namespace

// The UCX prototype is ucs_status_ptr_t ucp_disconnect_nb(ucp_ep_h); both are pointers and
// UCS_OK is a null status pointer, so comops needs no UCX header.
extern "C" __attribute__((visibility("default"))) void* ucp_disconnect_nb(void* ep) {
  if (skip_disconnect.load(std::memory_order_relaxed)) return nullptr;
  using Fn = void* (*)(void*);
  static const Fn real = reinterpret_cast<Fn>(::dlsym(RTLD_NEXT, "ucp_disconnect_nb"));
  if (real == nullptr) std::abort();  // called by a library that is not linked with UCX: impossible
  return real(ep);
}

namespace comops {

void finalize_mpi() {
  const char* keep = std::getenv("COMOPS_FINALIZE_DISCONNECT");
  const bool workaround = keep == nullptr || std::strcmp(keep, "1") != 0;
  MPI_Barrier(MPI_COMM_WORLD);
  skip_disconnect.store(workaround, std::memory_order_relaxed);
  MPI_Finalize();
  skip_disconnect.store(false, std::memory_order_relaxed);
}

}  // namespace comops
