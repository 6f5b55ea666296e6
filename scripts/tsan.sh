#!/usr/bin/env bash
# Every test that runs work on more than one thread, under ThreadSanitizer: configures
# build-tsan/ (RelWithDebInfo at -O1 -g1: half the compile time of -O2 -g, and what TSan's
# documentation suggests; -fsanitize=thread, no benchmarks), builds only the target
# backplane_threaded_tests (the executables with tests labelled `threads`, and what they load:
# the runtime, the bundled plugins, the test plugins, and sdk-run for its --concurrency test) and
# runs `ctest -L threads`. Suites label their tests through backplane_doctest_tests()'s THREADED
# and THREADED_CASES (tests/doctest_tests.cmake). Any race report fails the run. Run from anywhere;
# extra arguments go to the configure step.
#
# OpenMP: Debian's libgomp is not built with -fsanitize=thread, so TSan cannot see the
# synchronization of an OpenMP team, and every `#pragma omp parallel` loop in the oneDNN plugin
# reports its own shared variables as races. This build therefore compiles the plugin without
# OpenMP (CMAKE_DISABLE_FIND_PACKAGE_OpenMP; its loops run serially, its thread-count calls are
# compiled out), so all of Backplane's code is checked with no suppression for it; what libdnnl
# does on its own OpenMP threads is uninstrumented anyway (tests/sanitizers/tsan.supp).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
  -DBACKPLANE_SANITIZE=thread -DBACKPLANE_BUILD_BENCHMARKS=OFF -DCMAKE_DISABLE_FIND_PACKAGE_OpenMP=ON "$@"
cmake --build build-tsan --target backplane_threaded_tests

source scripts/sanitizer-options.sh
ctest --test-dir build-tsan -L threads --output-on-failure -j2
