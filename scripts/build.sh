#!/usr/bin/env bash
# Configures and builds Backplane in build/ (Ninja, Release): the libraries, the bundled
# backend plugins with their manifests, the tools and the tests. Incremental when build/
# exists. Run from anywhere; extra arguments go to the configure step (e.g. -DBACKPLANE_BACKENDS_STATIC=ON).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build build
