#!/usr/bin/env bash
# The main job: installs the missing Debian packages, builds, runs sdk-info (the backend search
# paths, the registered backends and every rejected candidate with its reason), then runs the
# bundled sample model with sdk-run on every available backend, printing placement and timing.
# Exits with the first failing sdk-run's exit code, else with sdk-info's.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/install-deps.sh
bash scripts/build.sh

info_status=0
build/bin/sdk-info || info_status=$?

# The sample: a small CNN (conv, pooling, clip, hard-sigmoid, add, gemm), committed with its
# input (tests/data/generate_models.py).
model=tests/data/cnn.onnx
input=tests/data/cnn.input.npy
backends=()
while IFS= read -r backend; do backends+=("$backend"); done < <(build/bin/sdk-run --list-backends)

run_status=0
for preferred in "${backends[@]}"; do
  # The preferred backend first, the others as fallback for layers it does not support.
  order=$preferred
  for other in "${backends[@]}"; do
    [[ $other == "$preferred" ]] || order+=",$other"
  done
  echo
  echo "== sdk-run: $model, backends $order"
  build/bin/sdk-run --model "$model" --input "input=$input" --backends "$order" \
    --iterations 50 --verbose || { status=$?; [[ $run_status != 0 ]] || run_status=$status; }
done
if [[ ${#backends[@]} == 0 ]]; then
  echo "sdk-run: no backend available, the sample model was not run" >&2
  run_status=70
fi

if [[ $run_status != 0 ]]; then exit "$run_status"; fi
exit "$info_status"
