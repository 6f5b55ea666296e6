#!/usr/bin/env bash
# The main job: installs the missing Debian packages, builds, then runs sdk-info, which lists
# the backend search paths, the registered backends and every rejected candidate with its
# reason. Exits with sdk-info's exit code.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/install-deps.sh
bash scripts/build.sh
exec build/bin/sdk-info
