#!/usr/bin/env bash
# Builds and runs one libFuzzer target for a while:
#
#   scripts/fuzz.sh TARGET SECONDS [libFuzzer arguments...]
#
# TARGET: manifest, trust_files, naming_scheme, onnx_import or npy (tests/fuzz/README.md). Configures
# build-fuzz/ (Clang, -O1 -g, ASan+UBSan, coverage in the runtime and importer too), builds
# only that target, and fuzzes for SECONDS over a scratch copy of tests/fuzz/corpus/TARGET (the
# committed corpus is never written). Exits non-zero on any crash, sanitizer report, leak,
# timeout or out-of-memory; the input that caused it is kept in build-fuzz/fuzz-artifacts/TARGET/
# and is reproduced with `build-fuzz/bin/backplane_fuzz_TARGET <file>`. Extra arguments go to
# libFuzzer after the defaults (a later -flag=value wins), e.g. -runs=1000000 or -jobs=2.
# Environment: BACKPLANE_FUZZ_CONFIGURE_ARGS (extra configure arguments, e.g. the launcher).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

usage() {
  echo "usage: scripts/fuzz.sh manifest|trust_files|naming_scheme|onnx_import|npy SECONDS [libFuzzer args...]" >&2
  exit 64
}
[[ $# -ge 2 ]] || usage
target=$1
seconds=$2
shift 2
[[ $seconds =~ ^[0-9]+$ ]] || usage

# Per target: the longest input (bytes), the memory limit (MiB; also the largest single
# allocation) and the per-input time limit (s). Models get room for the seeds (under 5 KB) to
# grow; the 2 GiB cap is well above what a few-KB input may legitimately cost.
case $target in
  manifest)      max_len=16384; rss_mb=2048; timeout_s=10; dict=tests/fuzz/manifest.dict ;;
  naming_scheme) max_len=256;   rss_mb=1024; timeout_s=5;  dict= ;;
  trust_files)   max_len=4096;  rss_mb=1024; timeout_s=5;  dict= ;;
  onnx_import)   max_len=16384; rss_mb=2048; timeout_s=15; dict= ;;
  npy)           max_len=4096;  rss_mb=2048; timeout_s=10; dict= ;;
  *) usage ;;
esac

command -v clang++ >/dev/null || { echo "fuzz: clang++ is missing (scripts/install-deps.sh)" >&2; exit 69; }
# shellcheck disable=SC2086  # BACKPLANE_FUZZ_CONFIGURE_ARGS is a list of arguments
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" \
  -DCMAKE_CXX_COMPILER=clang++ -DBACKPLANE_SANITIZE=address,undefined -DBACKPLANE_BUILD_FUZZERS=ON \
  -DBACKPLANE_BUILD_TOOLS=OFF -DBACKPLANE_BUILD_BENCHMARKS=OFF ${BACKPLANE_FUZZ_CONFIGURE_ARGS:-} >/dev/null
cmake --build build-fuzz --target "backplane_fuzz_$target"

scratch=$(mktemp -d "${TMPDIR:-/tmp}/backplane-fuzz-$target.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
cp -R "tests/fuzz/corpus/$target" "$scratch/corpus"
artifacts="build-fuzz/fuzz-artifacts/$target"
mkdir -p "$artifacts"

# Sanitizers: the first report ends the run (it becomes a crash-* artifact); leaks are found.
export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:abort_on_error=0:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:${UBSAN_OPTIONS:-}"
args=(-max_total_time="$seconds" -max_len="$max_len" -rss_limit_mb="$rss_mb" -timeout="$timeout_s"
      -artifact_prefix="$artifacts/" -print_final_stats=1 -print_funcs=0 -detect_leaks=1)
[[ -z $dict ]] || args+=(-dict="$dict")
echo "fuzz: $target for ${seconds}s: build-fuzz/bin/backplane_fuzz_$target ${args[*]} $* <scratch corpus>"
status=0
started=$SECONDS
"build-fuzz/bin/backplane_fuzz_$target" "${args[@]}" "$@" "$scratch/corpus" || status=$?
if [[ $status != 0 ]]; then
  echo "fuzz: $target FAILED (exit $status); inputs kept in $artifacts/:" >&2
  ls -l "$artifacts" >&2 || true
  exit "$status"
fi
echo "fuzz: $target: no findings in $((SECONDS - started))s ($(find "$scratch/corpus" -type f | wc -l) corpus inputs at the end)"
