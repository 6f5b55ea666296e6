# ctest "packaging: lintian: no error and no warning in the DEB packages" (and "..., prefix /usr",
# for the packages of a build tree for the other usual prefix: prefix_build.cmake): builds a build
# tree's DEB packages with cpack into a scratch folder and runs lintian on all of them; any
# error or warning fails (overrides, each with its reason, are in packaging/debian/). Skipped,
# with a message, where lintian is not installed (scripts/install-deps.sh installs it).
#
# Only for a Release build (STRIPPED=1): Debug and sanitizer builds keep their symbols in the
# binaries, which Debian does not accept in a package.
#
#   cmake -DBUILD_DIR=<build tree> -DWORK=<scratch folder> -DSTRIPPED=<0|1> -P lintian_test.cmake
foreach(_name IN ITEMS BUILD_DIR WORK)
  if(NOT DEFINED ${_name})
    message(FATAL_ERROR "${_name} is not set")
  endif()
endforeach()
if(NOT STRIPPED)
  message("skipped: not a Release build (its binaries keep their symbols)")  # SKIP_REGULAR_EXPRESSION
  return()
endif()
find_program(LINTIAN lintian)
if(NOT LINTIAN)
  message("skipped: lintian is not installed (apt-get install lintian)")  # SKIP_REGULAR_EXPRESSION
  return()
endif()

file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
execute_process(
  COMMAND "${CMAKE_CPACK_COMMAND}" -G DEB --config "${BUILD_DIR}/CPackConfig.cmake" -B "${WORK}"
  RESULT_VARIABLE _result OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
if(NOT _result EQUAL 0)
  message(FATAL_ERROR "cpack failed:\n${_out}")
endif()
file(GLOB _debs "${WORK}/*.deb")
if(NOT _debs)
  message(FATAL_ERROR "cpack made no .deb in ${WORK}:\n${_out}")
endif()
# --fail-on error,warning: the exit status says whether any error or warning was found
# (overridden tags do not count; --show-overrides would make them count).
execute_process(
  COMMAND "${LINTIAN}" --fail-on error,warning --no-tag-display-limit ${_debs}
  RESULT_VARIABLE _result OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
message("${_out}")
if(NOT _result EQUAL 0)
  message(FATAL_ERROR "lintian found errors or warnings (exit ${_result}):\n${_out}${_err}")
endif()
list(LENGTH _debs _count)
message("lintian: ${_count} packages, no error and no warning")
