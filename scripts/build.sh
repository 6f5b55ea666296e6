#!/usr/bin/env bash
# Configures and builds Backplane in build/ (Ninja, Release): the libraries, the bundled
# backend plugins with their manifests, the tools and the tests. Incremental when build/
# exists. Run from anywhere; extra arguments go to the configure step (e.g. -DBACKPLANE_BACKENDS_STATIC=ON).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# Compiles go through ccache when it is installed (install-deps.sh installs it): a rebuild after
# `git checkout`, and the packaging tests' second tree of this source for another prefix
# (packaging/tests/prefix_build.cmake), then cost a cache lookup per unchanged object. Depend
# mode (no extra preprocessor pass on a miss) and no working folder in the key (so that two
# build trees share entries; line tables name sources by absolute path either way).
launcher=()
if command -v ccache >/dev/null; then
  export CCACHE_DEPEND=${CCACHE_DEPEND:-true} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-true}
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" "$@"
cmake --build build
