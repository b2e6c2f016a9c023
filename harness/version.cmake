# Writes harness/version.hpp with the source's current git revision; run at every build, so the
# revision in a run's JSON is the one the binary was built from (the file changes only when the
# revision does).
set(COMOPS_GIT_SHA "unknown")
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --short HEAD WORKING_DIRECTORY ${SOURCE_DIR}
                  OUTPUT_VARIABLE sha OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
  if(rc EQUAL 0 AND sha)
    execute_process(COMMAND ${GIT_EXECUTABLE} status --porcelain --untracked-files=no
                    WORKING_DIRECTORY ${SOURCE_DIR} OUTPUT_VARIABLE dirty ERROR_QUIET)
    set(COMOPS_GIT_SHA ${sha})
    if(dirty)
      set(COMOPS_GIT_SHA "${sha}-dirty")
    endif()
  endif()
endif()
configure_file(${INPUT} ${OUTPUT} @ONLY)
