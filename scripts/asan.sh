#!/usr/bin/env bash
# The whole test suite under AddressSanitizer + UndefinedBehaviorSanitizer (and LeakSanitizer):
# configures build-asan/ (-O1 -g1: line tables only, which is all a sanitizer stack needs and
# builds a third faster than -g; -O1 keeps the suite quick to run; no benchmarks),
# builds everything the tests need (the tools too: the e2e tests run them) and runs every test
# with ctest but three packaging tests (below). Any ASan, UBSan or leak report fails its test;
# the options are in scripts/sanitizer-options.sh, the suppressions in tests/sanitizers/. Run
# from anywhere; extra arguments go to the configure step (e.g. -DCMAKE_CXX_COMPILER_LAUNCHER=ccache).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
  -DBACKPLANE_SANITIZE=address,undefined -DBACKPLANE_BUILD_BENCHMARKS=OFF "$@"
cmake --build build-asan

source scripts/sanitizer-options.sh
# Three packaging tests cannot hold for a sanitized build, by design, and test nothing about
# memory: the unsanitized examples (backend, app) cannot link against the sanitized SDK, and
# the DEB test rightly finds the packaged runtime loading libasan, which its Depends do not
# name. The Release run covers them; every other test runs here.
ctest --test-dir build-asan --output-on-failure -j2 \
  -E '^packaging: (the example backend builds against the installed SDK|the app example builds against the installed SDK with CMake and with pkg-config|DEB and TGZ packages)$'
