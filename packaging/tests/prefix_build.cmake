# ctest fixture "packaging: build the packaged parts for prefix <prefix>": configures and builds
# a second build tree of the SDK for another CMAKE_INSTALL_PREFIX, so that the package tests
# (packages_test.cmake, lintian_test.cmake) check the packages of both usual prefixes: /usr, as a
# distribution builds (GNUInstallDirs' libdir is then lib/<multiarch> on Debian), and the default
# /usr/local (libdir lib). Only what the packages hold is built: no tests, no benchmarks, and
# the bundled backends named in OPTIONS. The tree is kept, so a later run rebuilds only what
# changed. Fails with the configure or build output.
#
#   cmake -DSOURCE=<source tree> -DBUILD=<build tree> -DGENERATOR=<generator> -DPREFIX=<prefix>
#         [-DOPTIONS=<-DNAME=value,...>] -P prefix_build.cmake
foreach(_name IN ITEMS SOURCE BUILD GENERATOR PREFIX)
  if(NOT DEFINED ${_name})
    message(FATAL_ERROR "${_name} is not set")
  endif()
endforeach()
string(REPLACE "," ";" OPTIONS "${OPTIONS}")  # lists travel ","-separated (no ";" in COMMAND)

execute_process(
  COMMAND "${CMAKE_COMMAND}" -S "${SOURCE}" -B "${BUILD}" -G "${GENERATOR}"
          "-DCMAKE_INSTALL_PREFIX=${PREFIX}" -DBACKPLANE_BUILD_TESTS=OFF
          -DBACKPLANE_BUILD_BENCHMARKS=OFF ${OPTIONS}
  RESULT_VARIABLE _result OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
if(NOT _result EQUAL 0)
  message(FATAL_ERROR "configuring ${BUILD} for prefix ${PREFIX} failed:\n${_out}")
endif()
string(TIMESTAMP _start "%s")
# With a compiler cache (OPTIONS names the outer tree's launcher), this tree shares the outer
# tree's entries: every object but the two that hold the install layout (runtime/CMakeLists.txt)
# is the same. ccache keys without the working folder for that (scripts/build.sh sets the same).
set(ENV{CCACHE_DEPEND} true)
set(ENV{CCACHE_NOHASHDIR} true)
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${BUILD}"
                RESULT_VARIABLE _result OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
if(NOT _result EQUAL 0)
  message(FATAL_ERROR "building ${BUILD} for prefix ${PREFIX} failed:\n${_out}")
endif()
string(TIMESTAMP _end "%s")
math(EXPR _seconds "${_end} - ${_start}")
message(STATUS "${BUILD} (prefix ${PREFIX}) built in ${_seconds} s")
