# The MPI comops builds against, chosen at configure time: -DCOMOPS_MPI=mpich (the default) or
# -DCOMOPS_MPI=openmpi. FindMPI then uses that implementation's compiler wrapper (Debian's
# mpicc.mpich / mpicc.openmpi, found on PATH; MPI_C_COMPILER given on the command line wins) and
# the tests its launcher (mpiexec.mpich / mpiexec.openmpi; MPIEXEC_EXECUTABLE wins). Without the
# suffixed names (another distribution) FindMPI's own search runs, and the check below still makes
# sure the mpi.h found belongs to the implementation asked for.
#
# Sets COMOPS_MPI_OPENMPI (ON for Open MPI) and COMOPS_DEFAULT_MPIEXEC: the launcher a directly run
# comops starts itself under when neither --mpiexec nor $COMOPS_MPIEXEC names one ("mpiexec" for
# MPICH, as before; Open MPI's own launcher for Open MPI, so that the system's default mpiexec,
# which may be MPICH's, never starts an Open MPI comops).
set(COMOPS_MPI mpich CACHE STRING "MPI implementation to build against: mpich or openmpi")
set_property(CACHE COMOPS_MPI PROPERTY STRINGS mpich openmpi)
if(NOT COMOPS_MPI MATCHES "^(mpich|openmpi)$")
  message(FATAL_ERROR "COMOPS_MPI is '${COMOPS_MPI}': use mpich or openmpi")
endif()

if(NOT MPI_C_COMPILER)
  find_program(COMOPS_MPICC NAMES mpicc.${COMOPS_MPI} NO_CACHE)
  if(COMOPS_MPICC)
    set(MPI_C_COMPILER ${COMOPS_MPICC} CACHE FILEPATH "MPI C compiler wrapper")
  elseif(COMOPS_MPI STREQUAL "openmpi")
    message(FATAL_ERROR "COMOPS_MPI=openmpi: mpicc.openmpi not found (apt-get install "
                        "openmpi-bin libopenmpi-dev, or give -DMPI_C_COMPILER=.../mpicc)")
  endif()
endif()
if(NOT MPIEXEC_EXECUTABLE)
  find_program(COMOPS_MPIEXEC NAMES mpiexec.${COMOPS_MPI} NO_CACHE)
  if(COMOPS_MPIEXEC)
    set(MPIEXEC_EXECUTABLE ${COMOPS_MPIEXEC} CACHE FILEPATH "MPI launcher of the tests")
  endif()
endif()

find_package(MPI REQUIRED COMPONENTS C)

# The mpi.h found must be the implementation asked for (a mismatch would mislabel every result).
include(CheckSymbolExists)
set(CMAKE_REQUIRED_INCLUDES ${MPI_C_INCLUDE_DIRS})
set(CMAKE_REQUIRED_QUIET ON)
check_symbol_exists(OPEN_MPI mpi.h COMOPS_MPI_H_IS_OPENMPI)
check_symbol_exists(MPICH_VERSION mpi.h COMOPS_MPI_H_IS_MPICH)
unset(CMAKE_REQUIRED_INCLUDES)
unset(CMAKE_REQUIRED_QUIET)
if(COMOPS_MPI STREQUAL "openmpi" AND NOT COMOPS_MPI_H_IS_OPENMPI)
  message(FATAL_ERROR "COMOPS_MPI=openmpi but ${MPI_C_INCLUDE_DIRS}/mpi.h is not Open MPI's")
elseif(COMOPS_MPI STREQUAL "mpich" AND NOT COMOPS_MPI_H_IS_MPICH)
  message(FATAL_ERROR "COMOPS_MPI=mpich but ${MPI_C_INCLUDE_DIRS}/mpi.h is not MPICH's "
                      "(-DCOMOPS_MPI=openmpi builds against Open MPI)")
endif()

if(COMOPS_MPI STREQUAL "openmpi")
  set(COMOPS_MPI_OPENMPI ON)
  set(COMOPS_DEFAULT_MPIEXEC mpiexec)
  get_filename_component(name "${MPIEXEC_EXECUTABLE}" NAME)
  if(name)
    set(COMOPS_DEFAULT_MPIEXEC ${name})
  endif()
else()
  set(COMOPS_MPI_OPENMPI OFF)
  set(COMOPS_DEFAULT_MPIEXEC mpiexec)
endif()
message(STATUS "comops MPI: ${COMOPS_MPI} (${MPI_C_INCLUDE_DIRS}; tests launch with "
               "${MPIEXEC_EXECUTABLE}; comops run directly launches with ${COMOPS_DEFAULT_MPIEXEC})")
