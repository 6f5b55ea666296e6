#!/usr/bin/env bash
# GpuOpenCl's speed on the device it picks (a GPU, else PoCL when allowed): the compute kernels
# (backplane_backend_kernels_bench, one layer per run and eight chained), CLBlast's own SGEMM on the same device as the ceiling
# (backplane_clblast_sgemm_bench), and resnet18 / mobilenet_v2 end to end through
# `sdk-run --backends GpuOpenCl --strict`, interleaved over rounds, as one table of medians.
#
#   bench/gpu_opencl_bench.sh [--build DIR] [--models-dir DIR] [--rounds N] [--iterations N]
#
# --build: a build tree (DIR/bin/..., plugins in DIR/lib*/backplane/backends) or an installed
# prefix; default build. The models come from bench/peers/peer_models.py (seeded random
# weights) in --models-dir, default DIR/bench-models; PYTHON (default /usr/bin/python3) must
# have torch, torchvision and onnx. BACKPLANE_OPENCL_ALLOW_CPU=1 is set, so on a machine with
# no GPU this measures PoCL. Not a test: timings never fail a build.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build=build models="" rounds=3 iterations=10
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    --models-dir) models="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --iterations) iterations="$2"; shift 2 ;;
    *) echo "usage: $0 [--build DIR] [--models-dir DIR] [--rounds N] [--iterations N]" >&2; exit 64 ;;
  esac
done
build="$(cd "$build" && pwd)"
models="${models:-$build/bench-models}"
python="${PYTHON:-/usr/bin/python3}"
export BACKPLANE_OPENCL_ALLOW_CPU=1

echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) cores"
"$build/bin/sdk-info" 2>/dev/null | awk '/GpuOpenCl .*Backend API/ {f = 1} f && /^ +device  / {print; exit}' || true
echo

echo "== compute kernels (medians of $((rounds * 3)) rounds)"
"$build/bin/backplane_backend_kernels_bench" --backends GpuOpenCl --rounds $((rounds * 3))
echo
echo "== the same, 8 layers per run: the layers' own speed (one layer per run is bound by the host transfers on a discrete GPU)"
"$build/bin/backplane_backend_kernels_bench" --backends GpuOpenCl --rounds "$rounds" --chain 8
echo
if [ -x "$build/bin/backplane_clblast_sgemm_bench" ]; then
  echo "== CLBlast's own SGEMM, the ceiling"
  "$build/bin/backplane_clblast_sgemm_bench" --allow-cpu --sizes 512,1024 --rounds $((rounds * 3))
  echo
fi

PYTHONPATH="$here/peers" "$python" - "$models" <<'EOF'
import sys
import peer_models
for name in ("resnet18", "mobilenet_v2"):
    peer_models.ensure_model(sys.argv[1], name, log=lambda m: print(m, file=sys.stderr))
EOF

echo "== models end to end: sdk-run --backends GpuOpenCl --strict, batch 1, $iterations runs x $rounds rounds"
declare -A p50s
for round in $(seq "$rounds"); do
  for name in resnet18 mobilenet_v2; do
    p50=$("$build/bin/sdk-run" --model "$models/$name.onnx" --input "input=$models/$name.input.npy" \
            --backends GpuOpenCl --strict --iterations "$iterations" --warmup 2 --json |
          "$python" -c 'import json,sys; print(json.load(sys.stdin)["latency_ms"]["p50"])')
    p50s[$name]="${p50s[$name]:-} $p50"
  done
done
printf '%-14s %14s %s\n' model "median p50 ms" "rounds"
for name in resnet18 mobilenet_v2; do
  median=$(printf '%s\n' ${p50s[$name]} | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}')
  printf '%-14s %14.2f %s\n' "$name" "$median" "${p50s[$name]}"
done
