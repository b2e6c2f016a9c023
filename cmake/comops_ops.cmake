# The op list and comops_add_ops, which turns it into a backend's op table.

# COMOPS_OPS: the op files every full backend (mpi, shm, swcc) has, one word per file <op>.cpp, in
# the order the op tables list them. The one list of ops in the build: a new op file is one word
# here. A file may serve several ops (reduce.cpp: reduce-max and reduce-sum).
set(COMOPS_OPS
  pingpong
  broadcast
  reduce
  gather
  scatter
  barrier
  alltoall
  allgather
  allreduce
  reduce_scatter
  rma
  stream_bw
  bibw
  matmul
  em3d)

# comops_add_ops(<target> NAMESPACE <ns> HEADER <header> [SETTING <type>]
#                {ALL_OPS [EXCEPT <op>...] | OPS <op>...})
#
# A backend's op set: ALL_OPS takes COMOPS_OPS, less the ops EXCEPT names (those the backend
# lacks, said explicitly); OPS names a partial backend's own subset of COMOPS_OPS (hybrid). Each
# word is the op file <op>.cpp of the calling folder, which defines
# `OpTable <op>_ops(<SETTING> setting)` (no parameter when SETTING is not given): the table
# entries of the kinds that file implements. This adds the files to <target> and generates the
# backend's `OpTable op_table(<SETTING> setting)` in <ns>, every file's entries in the list's
# order. HEADER declares op_table and SETTING. A word that is not in COMOPS_OPS, or an op file
# that is missing, stops the configuration.
function(comops_add_ops target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "ALL_OPS" "NAMESPACE;HEADER;SETTING" "OPS;EXCEPT")
  set(one_set TRUE)
  if((arg_ALL_OPS AND arg_OPS) OR (NOT arg_ALL_OPS AND NOT arg_OPS) OR (arg_EXCEPT AND arg_OPS))
    set(one_set FALSE)
  endif()
  if(NOT arg_NAMESPACE OR NOT arg_HEADER OR NOT one_set)
    message(FATAL_ERROR
            "comops_add_ops(${target}): NAMESPACE, HEADER and ALL_OPS [EXCEPT ...] or OPS are required")
  endif()
  foreach(op IN LISTS arg_OPS arg_EXCEPT)
    if(NOT op IN_LIST COMOPS_OPS)
      message(FATAL_ERROR "comops_add_ops(${target}): ${op} is not in COMOPS_OPS")
    endif()
  endforeach()
  if(arg_ALL_OPS)
    set(ops ${COMOPS_OPS})
    if(arg_EXCEPT)
      list(REMOVE_ITEM ops ${arg_EXCEPT})
    endif()
  else()
    set(ops ${arg_OPS})
  endif()
  _comops_op_table(${target} "${arg_NAMESPACE}" "${arg_HEADER}" "${arg_SETTING}" ${ops})
endfunction()

# The op files `ARGN` added to `target`, and its generated op table.
function(_comops_op_table target namespace header setting)
  if(setting)
    set(parameter "${setting} setting")
    set(argument "setting")
  else()
    set(parameter "")
    set(argument "")
  endif()
  set(declarations "")
  set(calls "")
  foreach(op IN LISTS ARGN)
    if(NOT EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/${op}.cpp)
      message(FATAL_ERROR "comops_add_ops(${target}): op ${op} has no file ${op}.cpp; write it, "
                          "or name it in EXCEPT if the backend lacks it")
    endif()
    target_sources(${target} PRIVATE ${op}.cpp)
    string(APPEND declarations "OpTable ${op}_ops(${parameter});\n")
    string(APPEND calls "  append(${op}_ops(${argument}));\n")
  endforeach()
  set(OP_TABLE_HEADER ${header})
  set(OP_TABLE_NAMESPACE ${namespace})
  set(OP_TABLE_PARAMETER "${parameter}")
  set(OP_TABLE_DECLARATIONS "${declarations}")
  set(OP_TABLE_CALLS "${calls}")
  set(generated ${CMAKE_CURRENT_BINARY_DIR}/op_table.cpp)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/op_table.cpp.in ${generated} @ONLY)
  target_sources(${target} PRIVATE ${generated})
endfunction()
