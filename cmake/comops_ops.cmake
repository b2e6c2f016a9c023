# comops_add_ops(<target> NAMESPACE <ns> HEADER <header> [SETTING <type>] OPS <op>...)
#
# A backend's op set is its OPS list: each word is the op file <op>.cpp of the calling folder,
# which defines `OpTable <op>_ops(<SETTING> setting)` (no parameter when SETTING is not given):
# the table entries of the kinds that file implements. This adds the files to <target> and
# generates the backend's `OpTable op_table(<SETTING> setting)` in <ns>, every file's entries in
# the list's order. HEADER declares op_table and SETTING. A new op is one word in the list and
# one file; no declaration anywhere else.
function(comops_add_ops target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "NAMESPACE;HEADER;SETTING" "OPS")
  if(NOT arg_NAMESPACE OR NOT arg_HEADER OR NOT arg_OPS)
    message(FATAL_ERROR "comops_add_ops(${target}): NAMESPACE, HEADER and OPS are required")
  endif()
  if(arg_SETTING)
    set(parameter "${arg_SETTING} setting")
    set(argument "setting")
  else()
    set(parameter "")
    set(argument "")
  endif()
  set(declarations "")
  set(calls "")
  foreach(op IN LISTS arg_OPS)
    if(NOT EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/${op}.cpp)
      message(FATAL_ERROR "comops_add_ops(${target}): op ${op} has no file ${op}.cpp")
    endif()
    target_sources(${target} PRIVATE ${op}.cpp)
    string(APPEND declarations "OpTable ${op}_ops(${parameter});\n")
    string(APPEND calls "  append(${op}_ops(${argument}));\n")
  endforeach()
  set(OP_TABLE_HEADER ${arg_HEADER})
  set(OP_TABLE_NAMESPACE ${arg_NAMESPACE})
  set(OP_TABLE_PARAMETER "${parameter}")
  set(OP_TABLE_DECLARATIONS "${declarations}")
  set(OP_TABLE_CALLS "${calls}")
  set(generated ${CMAKE_CURRENT_BINARY_DIR}/op_table.cpp)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/op_table.cpp.in ${generated} @ONLY)
  target_sources(${target} PRIVATE ${generated})
endfunction()
