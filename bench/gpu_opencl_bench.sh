#!/usr/bin/env bash
# GpuOpenCl's speed on the device it picks (a GPU, else PoCL when allowed): the compute kernels
# (backplane_backend_kernels_bench: one layer per run, and eight chained per run, which shows
# the layers' own speed where host transfers bound a single layer), CLBlast's own SGEMM on the
# same device as the ceiling (backplane_clblast_sgemm_bench), and resnet18 / mobilenet_v2 end to
# end through `sdk-run --backends GpuOpenCl --strict`. With --baseline, another build is run in
# the same rounds, alternating with this one, and each row gets the ratio of the medians.
#
#   bench/gpu_opencl_bench.sh [--build DIR] [--baseline DIR] [--models-dir DIR] [--rounds N]
#                             [--iterations N]
#
# --build, --baseline: a build tree (DIR/bin/..., plugins in DIR/lib*/backplane/backends) or an
# installed prefix; --build defaults to build. The models come from bench/peers/peer_models.py
# (seeded random weights) in --models-dir, default DIR/bench-models; PYTHON (default
# /usr/bin/python3) must have torch, torchvision and onnx. BACKPLANE_OPENCL_ALLOW_CPU=1 is set,
# so on a machine with no GPU this measures PoCL. Not a test: timings never fail a build.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build=build baseline="" models="" rounds=3 iterations=10
usage="usage: $0 [--build DIR] [--baseline DIR] [--models-dir DIR] [--rounds N] [--iterations N]"
while [ $# -gt 0 ]; do
  [ $# -ge 2 ] || { echo "$usage" >&2; exit 64; }
  case "$1" in
    --build) build="$2" ;;
    --baseline) baseline="$2" ;;
    --models-dir) models="$2" ;;
    --rounds) rounds="$2" ;;
    --iterations) iterations="$2" ;;
    *) echo "$usage" >&2; exit 64 ;;
  esac
  shift 2
done
build="$(cd "$build" && pwd)"
builds=("$build")
if [ -n "$baseline" ]; then builds+=("$(cd "$baseline" && pwd)"); fi
models="${models:-$build/bench-models}"
python="${PYTHON:-/usr/bin/python3}"
export BACKPLANE_OPENCL_ALLOW_CPU=1
samples="$(mktemp)"
trap 'rm -f "$samples"' EXIT
label() { if [ "$1" = "$build" ]; then echo this; else echo baseline; fi; }

echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) cores"
"$build/bin/sdk-info" 2>/dev/null | awk '/GpuOpenCl .*Backend API/ {f = 1} f && /^ +device  / {print; exit}' || true
echo "this: $build${baseline:+, baseline: ${builds[1]}}"
echo

if [ -x "$build/bin/backplane_clblast_sgemm_bench" ]; then
  echo "== CLBlast's own SGEMM, the ceiling"
  "$build/bin/backplane_clblast_sgemm_bench" --allow-cpu --sizes 512,1024 --rounds $((rounds * 3)) || true
  echo
fi

PYTHONPATH="$here/peers" "$python" - "$models" <<'EOF'
import sys
import peer_models
for name in ("resnet18", "mobilenet_v2"):
    peer_models.ensure_model(sys.argv[1], name, log=lambda m: print(m, file=sys.stderr))
EOF

# Samples, one per line: "<build label>|<row>|<value>".
kernel_rows() {  # BUILD CHAIN: one round of the kernels bench, as samples
  "$1/bin/backplane_backend_kernels_bench" --backends GpuOpenCl --rounds 1 ${2:+--chain "$2"} |
    awk -v who="$(label "$1")" '/ GpuOpenCl +[0-9.]+ +[0-9.]+ +[0-9.]+%$/ {
      name = substr($0, 1, index($0, " GpuOpenCl") - 1); sub(/ +$/, "", name)
      print who "|" name " GFLOP/s|" $(NF - 1) }'
}
# A build from before --chain existed gives the single-layer rows only.
chains() {
  local said
  said="$("$1/bin/backplane_backend_kernels_bench" --chain 0 2>&1 || true)"
  case "$said" in *"unknown option"*) echo "" ;; *) echo "1 8" ;; esac
}
for round in $(seq "$rounds"); do
  for b in "${builds[@]}"; do
    for chain in $(chains "$b"); do kernel_rows "$b" "$chain" >> "$samples"; done
    [ -n "$(chains "$b")" ] || kernel_rows "$b" "" >> "$samples"
    for name in resnet18 mobilenet_v2; do
      p50=$("$b/bin/sdk-run" --model "$models/$name.onnx" --input "input=$models/$name.input.npy" \
              --backends GpuOpenCl --strict --iterations "$iterations" --warmup 2 --json |
            "$python" -c 'import json,sys; print(json.load(sys.stdin)["latency_ms"]["p50"])')
      echo "$(label "$b")|$name ms (p50)|$p50" >> "$samples"
    done
  done
done

echo "== medians of $rounds interleaved rounds"
"$python" - "$samples" "${baseline:+1}" <<'EOF'
import statistics, sys
rows, values = [], {}
for line in open(sys.argv[1]):
    who, row, value = line.rstrip("\n").split("|")
    if row not in rows:
        rows.append(row)
    values.setdefault((who, row), []).append(float(value))
two = sys.argv[2] == "1"
print(f"{'':34} {'this':>10}" + (f" {'baseline':>10} {'this/base':>10}" if two else ""))
for row in rows:
    this = values.get(("this", row))
    base = values.get(("baseline", row))
    line = f"{row:34} {statistics.median(this):10.2f}" if this else f"{row:34} {'-':>10}"
    if two:
        line += f" {statistics.median(base):10.2f}" if base else f" {'-':>10}"
        if this and base:
            line += f" {statistics.median(this) / statistics.median(base):10.2f}"
    print(line)
EOF
