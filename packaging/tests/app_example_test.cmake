# ctest "packaging: the app example builds against the installed SDK with CMake and with
# pkg-config": builds examples/app (an ONNX-importing application) from the fixture's install
# prefix twice and runs each build on MODEL with CpuRef:
#   - CMake: find_package(Backplane COMPONENTS runtime onnx), as docs/app-developers.md shows;
#   - pkg-config: `c++ -std=c++17 main.cpp $(pkg-config --cflags --libs backplane-onnx)`
#     against <prefix>/lib*/pkgconfig (skipped with a message where pkg-config is missing);
# each must print the loaded library's version (the SDK's, VERSION) and the model's outputs.
# Then find_package(Backplane COMPONENTS runtime nonsense) must fail naming the component.
#
#   cmake -DPREFIX=<installed prefix> -DSOURCE=<examples/app> -DWORK=<scratch folder>
#         -DGENERATOR=<generator> -DMODEL=<model.onnx> -DVERSION=<x.y.z> -DLIBDIR=<libdir>
#         -P app_example_test.cmake
foreach(_name IN ITEMS PREFIX SOURCE WORK GENERATOR MODEL VERSION LIBDIR)
  if(NOT DEFINED ${_name})
    message(FATAL_ERROR "${_name} is not set")
  endif()
endforeach()
if(NOT EXISTS "${PREFIX}/${LIBDIR}")
  message(FATAL_ERROR "no installed SDK at ${PREFIX} (the install fixture did not run)")
endif()
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")

# Runs the built example on MODEL with CpuRef; fails unless it printed the versions and outputs.
function(run_example program how)
  execute_process(COMMAND "${program}" "${MODEL}" CpuRef
    RESULT_VARIABLE _result OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
  if(NOT _result EQUAL 0)
    message(FATAL_ERROR "the app example built with ${how} failed (exit ${_result}):\n${_out}${_err}")
  endif()
  if(NOT _out MATCHES "Backplane headers ${VERSION}, library ${VERSION}\n" OR
     NOT _out MATCHES "\n[^ \n]+ \\[[0-9, ]+\\]: ")
    message(FATAL_ERROR "the app example built with ${how} printed:\n${_out}")
  endif()
  message("${how}: ${_out}")
endfunction()

# ---- CMake --------------------------------------------------------------------------------
execute_process(
  COMMAND "${CMAKE_COMMAND}" -S "${SOURCE}" -B "${WORK}/cmake" -G "${GENERATOR}"
          "-DCMAKE_PREFIX_PATH=${PREFIX}" -DCMAKE_BUILD_TYPE=Release
  RESULT_VARIABLE _result OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
if(NOT _result EQUAL 0)
  message(FATAL_ERROR "configuring ${SOURCE} against ${PREFIX} failed:\n${_out}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${WORK}/cmake"
  RESULT_VARIABLE _result OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
if(NOT _result EQUAL 0)
  message(FATAL_ERROR "building ${SOURCE} failed:\n${_out}")
endif()
run_example("${WORK}/cmake/backplane-classify" "CMake")

# ---- A missing component is named ---------------------------------------------------------
file(WRITE "${WORK}/missing/CMakeLists.txt" "cmake_minimum_required(VERSION 3.16)
project(missing_component LANGUAGES CXX)
find_package(Backplane REQUIRED COMPONENTS runtime nonsense)
")
execute_process(
  COMMAND "${CMAKE_COMMAND}" -S "${WORK}/missing" -B "${WORK}/missing/build" -G "${GENERATOR}"
          "-DCMAKE_PREFIX_PATH=${PREFIX}"
  RESULT_VARIABLE _result OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
if(_result EQUAL 0 OR NOT _out MATCHES "has[ \n]+no[ \n]+component[ \n]+nonsense")
  message(FATAL_ERROR "find_package(Backplane COMPONENTS runtime nonsense) should fail naming "
                      "the component (exit ${_result}):\n${_out}")
endif()

# ---- pkg-config -----------------------------------------------------------------------------
find_program(PKG_CONFIG pkg-config)
if(NOT PKG_CONFIG)
  message("pkg-config build skipped: pkg-config is not installed")
  return()
endif()
set(ENV{PKG_CONFIG_PATH} "${PREFIX}/${LIBDIR}/pkgconfig")
execute_process(COMMAND "${PKG_CONFIG}" --cflags --libs backplane-onnx
  RESULT_VARIABLE _result OUTPUT_VARIABLE _flags ERROR_VARIABLE _err OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT _result EQUAL 0)
  message(FATAL_ERROR "pkg-config --cflags --libs backplane-onnx failed:\n${_err}")
endif()
if(NOT _flags MATCHES "-lbackplane_onnx" OR NOT _flags MATCHES "-lbackplane( |$)")
  message(FATAL_ERROR "pkg-config backplane-onnx gives '${_flags}': lacks -lbackplane_onnx -lbackplane")
endif()
separate_arguments(_flags UNIX_COMMAND "${_flags}")
if(NOT CMAKE_CXX_COMPILER)
  find_program(CMAKE_CXX_COMPILER NAMES c++ g++ clang++ REQUIRED)
endif()
execute_process(
  COMMAND "${CMAKE_CXX_COMPILER}" -std=c++17 "${SOURCE}/main.cpp" ${_flags}
          -o "${WORK}/pkg-config-classify"
  RESULT_VARIABLE _result OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
if(NOT _result EQUAL 0)
  message(FATAL_ERROR "compiling ${SOURCE}/main.cpp with pkg-config's flags failed:\n${_out}")
endif()
# pkg-config's Libs carry no run path: the program finds the libraries the way a user would,
# through LD_LIBRARY_PATH (or an install in the system's library path).
set(ENV{LD_LIBRARY_PATH} "${PREFIX}/${LIBDIR}")
run_example("${WORK}/pkg-config-classify" "pkg-config")
