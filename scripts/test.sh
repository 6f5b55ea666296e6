#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run): installs the missing Debian packages, then
#   1. builds (build/, Release) and runs every test with ctest;
#   2. the whole suite again under ASan+UBSan+LSan (scripts/asan.sh, build-asan/);
#   3. every test labelled `threads` under ThreadSanitizer (scripts/tsan.sh, build-tsan/);
#   4. each fuzz target for BACKPLANE_CI_FUZZ_SECONDS (default 15) (scripts/fuzz.sh, build-fuzz/);
#   5. the Windows cross-build (MinGW-w64) and its suite under Wine (scripts/windows.sh,
#      build-windows/; the Windows dependencies built from Debian's source packages first), at
#      -O1: the platform's code paths are what it tests, the optimizer's output is the Release
#      phase's, and -O1 compiles a third faster.
# Stops at the first failing phase; then prints how long each phase took and, last, the closing
# lines of the Release ctest run (its pass/fail count and time), so the output still ends as
# ctest's does. BACKPLANE_CI_PHASES (default "release asan tsan fuzz windows") picks the phases.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

phases=${BACKPLANE_CI_PHASES:-release asan tsan fuzz windows}
fuzz_seconds=${BACKPLANE_CI_FUZZ_SECONDS:-15}
timings=()
started=$SECONDS

# run_phase NAME COMMAND...: runs the phase, records its duration; a failure ends the script.
run_phase() {
  local name=$1 start=$SECONDS status=0
  shift
  echo
  echo "==== test.sh: $name"
  "$@" || status=$?
  timings+=("$(printf '%-28s %4dm%02ds%s' "$name" $(((SECONDS - start) / 60)) $(((SECONDS - start) % 60)) \
    "$([[ $status == 0 ]] || echo "  FAILED (exit $status)")")")
  if [[ $status != 0 ]]; then
    summary
    exit "$status"
  fi
}

summary() {
  echo
  echo "==== test.sh: phase timings"
  printf '  %s\n' "${timings[@]}"
  printf '  %-28s %4dm%02ds\n' "total" $(((SECONDS - started) / 60)) $(((SECONDS - started) % 60))
  if [[ -s $release_log ]]; then
    echo
    echo "==== test.sh: the Release ctest run's closing lines (build/)"
    sed -n '/tests passed, /,$p' "$release_log"
  fi
}

release_log=build/ctest-release.log
rm -f "$release_log"
release_ctest() {
  ctest --test-dir build --output-on-failure -j2 2>&1 | tee "$release_log"
}

fuzz_all() {
  local target
  for target in manifest trust_files naming_scheme onnx_import npy; do
    bash scripts/fuzz.sh "$target" "$fuzz_seconds" || return
  done
}

run_phase "install-deps" bash scripts/install-deps.sh
for phase in $phases; do
  case $phase in
    release)
      run_phase "release: build" bash scripts/build.sh
      run_phase "release: ctest" release_ctest ;;
    asan) run_phase "asan+ubsan: build, ctest" bash scripts/asan.sh ;;
    tsan) run_phase "tsan: build, ctest -L threads" bash scripts/tsan.sh ;;
    fuzz) run_phase "fuzz: build, ${fuzz_seconds}s per target" fuzz_all ;;
    windows)
      run_phase "windows: deps, build, ctest" bash scripts/windows.sh \
        -DCMAKE_C_FLAGS_RELEASE="-O1 -DNDEBUG" -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" ;;
    *) echo "test.sh: unknown phase '$phase' in BACKPLANE_CI_PHASES" >&2; exit 64 ;;
  esac
done
summary
