# ctest "packaging: the example backend built with clang++ -stdlib=libc++ runs in this runtime,
# and no plugin imports a C++ symbol of the SDK" (issue 41): a vendor's toolchain is not the
# SDK's. Configures examples/backend, unchanged, against the fixture's install prefix with
# clang++ -stdlib=libc++ and builds its plugin (not the check program: that links the runtime's
# C++ API, which needs the runtime's standard library). Then
#   - the plugin depends on libc++ and not libstdc++ (so the toolchain really was another), and
#     on none of the SDK's libraries;
#   - it and every installed bundled plugin import no C++ symbol (_Z...9backplane...);
#   - the installed, GCC-built sdk-run registers CpuExample from the build folder, places layers
#     of MODEL on it, and the outputs match EXPECTED.
# Prints "skipped: ..." (ctest SKIP_REGULAR_EXPRESSION) when CLANGXX cannot link against libc++.
#
#   cmake -DPREFIX=<installed prefix> -DSOURCE=<examples/backend> -DWORK=<scratch folder>
#         -DGENERATOR=<generator> -DCLANGXX=<clang++> -DNM=<nm> -DREADELF=<readelf>
#         -DBACKEND_SUBDIR=<bundled backends' folder, relative to PREFIX>
#         -DMODEL=<onnx model with a Relu> -DINPUT=<NAME=FILE.npy> -DEXPECTED=<NAME=FILE.npy>
#         -P example_backend_libcxx_test.cmake
foreach(_name IN ITEMS PREFIX SOURCE WORK GENERATOR CLANGXX NM READELF BACKEND_SUBDIR MODEL INPUT EXPECTED)
  if(NOT DEFINED ${_name})
    message(FATAL_ERROR "${_name} is not set")
  endif()
endforeach()
if(NOT EXISTS "${PREFIX}/bin/sdk-run")
  message(FATAL_ERROR "no ${PREFIX}/bin/sdk-run (the install fixture did not run)")
endif()
file(REMOVE_RECURSE "${WORK}")

# run(<what> <output variable> COMMAND ...): runs the command; stops naming <what> unless it exits 0.
function(run what out)
  execute_process(${ARGN} RESULT_VARIABLE _exit OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
  if(NOT _exit EQUAL 0)
    message(FATAL_ERROR "${what} exited ${_exit}:\n${_out}\n${_err}")
  endif()
  set(${out} "${_out}" PARENT_SCOPE)
endfunction()

file(WRITE "${WORK}/probe/probe.cpp"
     "#include <string>\nint main() { return std::string(\"x\").size() == 1 ? 0 : 1; }\n")
execute_process(COMMAND "${CLANGXX}" -stdlib=libc++ "${WORK}/probe/probe.cpp" -o "${WORK}/probe/probe"
                RESULT_VARIABLE _exit OUTPUT_QUIET ERROR_QUIET)
if(NOT _exit EQUAL 0)
  message(STATUS "skipped: ${CLANGXX} cannot build against libc++ (install libc++-dev libc++abi-dev)")
  return()
endif()

set(_build "${WORK}/build")
run("configuring ${SOURCE} with ${CLANGXX} -stdlib=libc++" _out
    COMMAND "${CMAKE_COMMAND}" -S "${SOURCE}" -B "${_build}" -G "${GENERATOR}"
            "-DCMAKE_PREFIX_PATH=${PREFIX}" -DCMAKE_BUILD_TYPE=Release
            "-DCMAKE_CXX_COMPILER=${CLANGXX}" "-DCMAKE_CXX_FLAGS=-stdlib=libc++")
run("building example_backend with ${CLANGXX} -stdlib=libc++" _out
    COMMAND "${CMAKE_COMMAND}" --build "${_build}" --target example_backend)
set(_plugin_dir "${_build}/lib/backplane/backends")
set(_plugin "${_plugin_dir}/Example_CpuExample_backend.so")
if(NOT EXISTS "${_plugin}")
  message(FATAL_ERROR "the build wrote no ${_plugin}")
endif()

# The shared libraries <library> needs (DT_NEEDED), in <out>.
function(needed_libraries library out)
  run("${READELF} -d ${library}" _dynamic COMMAND "${READELF}" -d "${library}")
  string(REGEX MATCHALL "Shared library: \\[[^]]+\\]" _entries "${_dynamic}")
  list(TRANSFORM _entries REPLACE "Shared library: \\[([^]]+)\\]" "\\1")
  set(${out} "${_entries}" PARENT_SCOPE)
endfunction()

# Stops unless <library> needs none of the SDK's libraries and imports no C++ symbol of the SDK.
function(expect_no_sdk_imports library)
  needed_libraries("${library}" _needed)
  foreach(_entry IN LISTS _needed)
    if(_entry MATCHES "^libbackplane")
      message(FATAL_ERROR "${library} needs ${_entry} (needed: ${_needed}): a plugin must not link the "
                          "SDK's libraries; backplane_add_backend() compiles the backend author kit in")
    endif()
  endforeach()
  run("${NM} -D --undefined-only ${library}" _symbols COMMAND "${NM}" -D --undefined-only "${library}")
  string(REGEX MATCHALL "_Z[^ \n]*9backplane[^ \n]*" _cxx "${_symbols}")
  if(_cxx)
    list(LENGTH _cxx _count)
    list(JOIN _cxx "\n  " _cxx)
    message(FATAL_ERROR "${library} imports ${_count} C++ symbols of the SDK, which a runtime built "
                        "by another toolchain cannot resolve:\n  ${_cxx}")
  endif()
endfunction()

needed_libraries("${_plugin}" _needed)
if(NOT _needed MATCHES "libc\\+\\+\\.so" OR _needed MATCHES "libstdc\\+\\+")
  message(FATAL_ERROR "${_plugin} was not built against libc++ alone (needed: ${_needed})")
endif()
expect_no_sdk_imports("${_plugin}")
file(GLOB _bundled "${PREFIX}/${BACKEND_SUBDIR}/*_backend.so")
if(NOT _bundled)
  message(FATAL_ERROR "no bundled plugin in ${PREFIX}/${BACKEND_SUBDIR}")
endif()
foreach(_library IN LISTS _bundled)
  expect_no_sdk_imports("${_library}")
endforeach()

# The GCC-built runtime loads it and runs MODEL's supported layers on it.
run("sdk-run --model ${MODEL} --path ${_plugin_dir} --backends CpuExample,CpuRef" _json
    COMMAND "${PREFIX}/bin/sdk-run" --model "${MODEL}" --path "${_plugin_dir}" --backends CpuExample,CpuRef
            --input "${INPUT}" --expected "${EXPECTED}" --iterations 1 --warmup 0 --json)
string(JSON _on_example ERROR_VARIABLE _error GET "${_json}" layers_per_backend CpuExample)
if(_error OR NOT _on_example GREATER 0)
  message(FATAL_ERROR "sdk-run placed no layer of ${MODEL} on the libc++ CpuExample:\n${_json}")
endif()
string(JSON _within GET "${_json}" expected 0 within_tolerance)
if(NOT _within)
  message(FATAL_ERROR "the outputs of ${MODEL} on the libc++ CpuExample differ from ${EXPECTED}:\n${_json}")
endif()

file(REMOVE_RECURSE "${WORK}")
list(LENGTH _bundled _count)
message(STATUS "CpuExample built with ${CLANGXX} -stdlib=libc++ ran ${_on_example} layers of ${MODEL} in "
               "this runtime within tolerance; it and ${_count} bundled plugins import no C++ symbol of the SDK")
