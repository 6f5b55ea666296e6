#!/usr/bin/env bash
# Cross-builds Backplane for 64-bit Windows with MinGW-w64 and tests it under Wine:
#   1. installs what is missing (scripts/install-deps.sh --windows: MinGW-w64, Wine, NSIS, ...);
#   2. builds the Windows dependencies from Debian's source packages into a cache outside the
#      repository, once per machine (packaging/windows/build-deps.sh);
#   3. configures and builds build-windows/ (Release) with packaging/windows/x86_64-w64-mingw32.cmake;
#   4. runs the test suite under Wine through ctest (skipped with --no-test).
# Extra arguments go to the configure step (e.g. -DBACKPLANE_BUILD_TESTS=OFF).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

run_tests=true
configure_args=()
for argument in "$@"; do
  case $argument in
    --no-test) run_tests=false ;;
    *) configure_args+=("$argument") ;;
  esac
done

bash scripts/install-deps.sh --windows
deps=$(bash packaging/windows/build-deps.sh)

# CpuOneDnn is left out (configure says why: Debian's onednn source package cannot be fetched
# here); GpuOpenCl links the system's OpenCL.dll and runs without CLBlast (docs/windows.md).
cmake -S . -B build-windows -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_TOOLCHAIN_FILE=packaging/windows/x86_64-w64-mingw32.cmake \
  -DBACKPLANE_WINDOWS_DEPS="$deps" \
  -DBoost_USE_STATIC_LIBS=ON -DOPENSSL_USE_STATIC_LIBS=ON \
  -DBACKPLANE_BACKEND_ONEDNN=OFF \
  -DBACKPLANE_BUILD_BENCHMARKS=OFF "${configure_args[@]}"
cmake --build build-windows

if $run_tests; then
  ctest --test-dir build-windows --output-on-failure -j2
fi
