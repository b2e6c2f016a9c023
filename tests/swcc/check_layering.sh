#!/bin/sh
# The layering of the DSM library and the MPI backends:
#   swcc/ (the DSM library) includes no comops header and links MPI and fmt only;
#   comops/mpi and comops/swcc include nothing of each other and do not link each other (both
#   build on comops/mpi_common).
# Usage: check_layering.sh ROOT "SWCC_DSM_LINKS" "COMOPS_MPI_LINKS" "COMOPS_SWCC_LINKS" (the
# targets' LINK_LIBRARIES, ';'-separated, as CMake gives them). Prints each violation; exit 1.
root=$1
fail=0
bad() { echo "check_layering: $*"; fail=1; }

hits=$(grep -rn '#include "comops/' "$root/swcc" --include='*.hpp' --include='*.cpp')
[ -z "$hits" ] || bad "swcc/ includes comops headers:
$hits"
hits=$(grep -rn '#include "comops/swcc/\|#include "swcc/' "$root/comops/mpi")
[ -z "$hits" ] || bad "comops/mpi includes swcc headers:
$hits"
hits=$(grep -rn '#include "comops/mpi/' "$root/comops/swcc")
[ -z "$hits" ] || bad "comops/swcc includes comops/mpi headers:
$hits"

for lib in $(echo "$2" | tr ';' ' '); do
  case $lib in
    MPI::MPI_C | fmt::fmt) ;;
    *) bad "swcc_dsm links $lib (allowed: MPI::MPI_C, fmt::fmt)" ;;
  esac
done
for lib in $(echo "$3" | tr ';' ' '); do
  case $lib in *swcc*) bad "comops_mpi links $lib" ;; esac
done
for lib in $(echo "$4" | tr ';' ' '); do
  case $lib in comops::mpi | comops_mpi) bad "comops_swcc links $lib" ;; esac
done
[ $fail -eq 0 ] && echo "check_layering: swcc/ stands alone; comops/mpi and comops/swcc are apart"
exit $fail
