// The explicit list of backend families comops knows (no static self-registration).
#include "comops/mpi/backend.hpp"
#include "comops/op.hpp"
#ifdef COMOPS_HAVE_SHM
#include "comops/shm/backend.hpp"
#endif
#ifdef COMOPS_HAVE_HYBRID
#include "comops/hybrid/backend.hpp"
#endif
#ifdef COMOPS_HAVE_SWCC
#include "comops/swcc/backend.hpp"
#endif

namespace comops {

std::vector<std::unique_ptr<BackendFamily>> backend_families() {
  std::vector<std::unique_ptr<BackendFamily>> families;
  families.push_back(make_mpi_family());
#ifdef COMOPS_HAVE_SHM
  families.push_back(make_shm_family());
  families.push_back(make_shmp_family());
#endif
#ifdef COMOPS_HAVE_HYBRID
  families.push_back(make_hybrid_family());
#endif
#ifdef COMOPS_HAVE_SWCC
  families.push_back(make_swcc_family());
#endif
  return families;
}

}  // namespace comops
