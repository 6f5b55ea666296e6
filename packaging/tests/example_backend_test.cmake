# ctest "packaging: the example backend builds against the installed SDK": builds
# examples/backend with find_package(Backplane) from the fixture's install prefix through
# `ctest --build-and-test` (which also runs the example's own test), then checks that the
# installed sdk-info registers CpuExample from the example's build folder, that its manifest
# passes --validate-manifest and is unsigned (no SIGN_KEY), and that a SIGN_KEY file that does
# not exist stops configuration with a message naming the target and the file. (Built with
# SIGN_KEY: "packaging: marketplace drop: ...".)
#
#   cmake -DPREFIX=<installed prefix> -DSOURCE=<examples/backend> -DWORK=<scratch folder>
#         -DGENERATOR=<generator> -P example_backend_test.cmake
foreach(_name IN ITEMS PREFIX SOURCE WORK GENERATOR)
  if(NOT DEFINED ${_name})
    message(FATAL_ERROR "${_name} is not set")
  endif()
endforeach()
if(NOT EXISTS "${PREFIX}/bin")
  message(FATAL_ERROR "no installed SDK at ${PREFIX} (the install fixture did not run)")
endif()
file(REMOVE_RECURSE "${WORK}")

execute_process(
  COMMAND "${CMAKE_CTEST_COMMAND}" --build-and-test "${SOURCE}" "${WORK}"
          --build-generator "${GENERATOR}"
          --build-options "-DCMAKE_PREFIX_PATH=${PREFIX}" -DCMAKE_BUILD_TYPE=Release
          --test-command "${CMAKE_CTEST_COMMAND}" -V
  RESULT_VARIABLE _result OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
if(NOT _result EQUAL 0)
  message(FATAL_ERROR "ctest --build-and-test of ${SOURCE} failed:\n${_out}")
endif()
if(NOT _out MATCHES "CpuExample ran relu")
  message(FATAL_ERROR "the example's own test did not run:\n${_out}")
endif()

file(GLOB_RECURSE _manifests "${WORK}/*/Example_CpuExample_backend.json")
list(LENGTH _manifests _n)
if(NOT _n EQUAL 1)
  message(FATAL_ERROR "expected one Example_CpuExample_backend.json under ${WORK}, found: ${_manifests}")
endif()
get_filename_component(_folder "${_manifests}" DIRECTORY)
if(EXISTS "${_manifests}.sig")
  message(FATAL_ERROR "built without SIGN_KEY, yet ${_manifests}.sig exists")
endif()

execute_process(COMMAND "${PREFIX}/bin/sdk-info" --path "${_folder}" --json
                RESULT_VARIABLE _exit OUTPUT_VARIABLE _json ERROR_VARIABLE _err)
if(NOT _exit EQUAL 0)
  message(FATAL_ERROR "sdk-info --path ${_folder} exited ${_exit}:\n${_json}\n${_err}")
endif()
string(JSON _count LENGTH "${_json}" backends)
set(_found OFF)
math(EXPR _last "${_count} - 1")
foreach(_i RANGE ${_last})
  string(JSON _id GET "${_json}" backends ${_i} id)
  if(_id STREQUAL "CpuExample")
    string(JSON _vendor GET "${_json}" backends ${_i} vendor)
    string(JSON _found_by GET "${_json}" backends ${_i} found_by)
    if(NOT _vendor STREQUAL "Example" OR NOT _found_by STREQUAL "manifest")
      message(FATAL_ERROR "CpuExample: vendor '${_vendor}', found by '${_found_by}'")
    endif()
    set(_found ON)
  endif()
endforeach()
if(NOT _found)
  message(FATAL_ERROR "the installed sdk-info does not register CpuExample from ${_folder}:\n${_json}")
endif()

execute_process(COMMAND "${PREFIX}/bin/sdk-info" --validate-manifest "${_manifests}"
                RESULT_VARIABLE _exit OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
if(NOT _exit EQUAL 0)
  message(FATAL_ERROR "sdk-info --validate-manifest ${_manifests} exited ${_exit}:\n${_out}")
endif()

# A SIGN_KEY that does not exist stops configuration, naming the target and the file.
set(_missing_key "${WORK}/no-such-folder/vendor.key")
execute_process(
  COMMAND "${CMAKE_COMMAND}" -S "${SOURCE}" -B "${WORK}/missing-key" -G "${GENERATOR}"
          "-DCMAKE_PREFIX_PATH=${PREFIX}" "-DEXAMPLE_SIGN_KEY=${_missing_key}"
  RESULT_VARIABLE _result OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
string(REGEX REPLACE "[ \n]+" " " _flat "${_out}")  # CMake wraps long messages
if(_result EQUAL 0 OR NOT _flat MATCHES "backplane_add_backend\\(example_backend\\): SIGN_KEY file"
   OR NOT _flat MATCHES "no-such-folder/vendor\\.key' does not exist")
  message(FATAL_ERROR "configuring with SIGN_KEY ${_missing_key} did not stop with a message naming "
                      "the target and the file (exit ${_result}):\n${_out}")
endif()

file(REMOVE_RECURSE "${WORK}")
message(STATUS "CpuExample built against ${PREFIX}, registered by its sdk-info, manifest valid, "
               "unsigned; a missing SIGN_KEY stops configuration")
