#!/usr/bin/env bash
# The concurrency suite under ThreadSanitizer: configures build-tsan/ (RelWithDebInfo,
# -fsanitize=thread, no benchmarks or tools), builds only the concurrency test executable and
# what it loads (the runtime, CpuRef and the test plugins, all instrumented), and runs
# `ctest -R concurrency`. Any race report fails the run. Run from anywhere; extra arguments go
# to the configure step. Takes a few minutes from scratch on 2 cores; incremental afterwards.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DBACKPLANE_SANITIZE=thread -DBACKPLANE_BUILD_BENCHMARKS=OFF -DBACKPLANE_BUILD_TOOLS=OFF "$@"
cmake --build build-tsan --target backplane_concurrency_test
# halt_on_error: the first race ends the test with a non-zero status and its report.
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
ctest --test-dir build-tsan -R concurrency --output-on-failure
