#!/usr/bin/env bash
# The whole test suite: installs the missing Debian packages, builds, runs every test with ctest,
# then the concurrency tests again under ThreadSanitizer (scripts/tsan.sh).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/install-deps.sh
bash scripts/build.sh
ctest --test-dir build --output-on-failure -j2
# Concurrency under ThreadSanitizer, in its own build (build-tsan/): a race fails the suite.
bash scripts/tsan.sh
