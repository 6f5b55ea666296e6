#!/usr/bin/env bash
# Runs a Windows program under Wine as ctest and the build run them (the toolchain's
# CMAKE_CROSSCOMPILING_EMULATOR): finds the toolchain's runtime DLLs (libstdc++, libgcc,
# winpthread) through WINEPATH, keeps Wine's own messages out of the output, and uses one Wine
# prefix per user, made on first use.
#   BACKPLANE_WINEPREFIX   the prefix (default ${XDG_CACHE_HOME:-~/.cache}/backplane/wine-prefix)
# Exit status: the program's.
#
# The program's standard error is written to a file and copied out after it ends: Wine's system
# processes (services.exe, explorer.exe, ...), started by whichever program finds none running,
# keep that program's standard error open for their own messages until the Wine server stops,
# and ctest and Ninja wait for every writer of a pipe to close it: a test that had passed hung
# until its timeout (seen about once in a few hundred runs). A hang of the program itself loses
# its standard error this way; run it by hand to see it.
#
# One Wine server serves the whole run: it is started here, before the program, to stay 60 s
# after its last program (Debian's wine starts it to stop at once), so programs that ctest starts
# one after the other do not meet a server that is shutting down ("wine client error:0: recvmsg:
# Connection reset by peer").
#
# A start that Wine fails before any of the program has run is tried again, up to three times:
# its loader could not map its shared user data page ("failed to map the shared user data", an
# address clash), or it could not reach the server ("wine client error:0:", thread 0: before the
# program's first thread). Nothing the program itself did is ever retried.
set -euo pipefail

compiler=x86_64-w64-mingw32-g++-posix
runtime_dirs=()
for dll in libstdc++-6.dll libgcc_s_seh-1.dll libwinpthread-1.dll; do
  runtime_dirs+=("$(dirname "$(realpath "$($compiler -print-file-name=$dll)")")")
done
winepath=$(printf '%s\n' "${runtime_dirs[@]}" | sort -u | paste -sd ';')
export WINEPATH="$winepath${WINEPATH:+;$WINEPATH}"
export WINEPREFIX=${BACKPLANE_WINEPREFIX:-${XDG_CACHE_HOME:-$HOME/.cache}/backplane/wine-prefix}
# Wine's messages are off but for the loader's errors, which the retry below reads.
export WINEDEBUG=${WINEDEBUG:--all,err+virtual}
export WINEDLLOVERRIDES=${WINEDLLOVERRIDES:-mscoree,mshtml=}  # no Mono/Gecko install prompts
if [[ ! -d $WINEPREFIX ]]; then
  mkdir -p "$(dirname "$WINEPREFIX")"
  wine wineboot --init >/dev/null 2>&1 || true
  wineserver -w  # until the server that made it has stopped
fi
wineserver -p60 </dev/null >/dev/null 2>&1 || true  # exits at once when this prefix's server is up

program_errors=$(mktemp)
trap 'rm -f "$program_errors"' EXIT
for attempt in 1 2 3; do
  status=0
  wine "$@" 2>"$program_errors" || status=$?
  cat "$program_errors" >&2
  if (( status == 0 || attempt == 3 )) || ! grep -q -e 'failed to map the shared user data' -e '^wine client error:0:' "$program_errors"; then
    exit "$status"
  fi
  echo "wine-run.sh: Wine could not start $1 (it failed before the program ran); starting it again" >&2
done
