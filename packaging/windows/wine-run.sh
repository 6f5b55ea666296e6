#!/usr/bin/env bash
# Runs a Windows program under Wine as ctest and the build run them (the toolchain's
# CMAKE_CROSSCOMPILING_EMULATOR): finds the toolchain's runtime DLLs (libstdc++, libgcc,
# winpthread) through WINEPATH, keeps Wine's own messages out of the output, and uses one Wine
# prefix per user, made on first use.
#   BACKPLANE_WINEPREFIX   the prefix (default ${XDG_CACHE_HOME:-~/.cache}/backplane/wine-prefix)
# Exit status: the program's.
set -euo pipefail

compiler=x86_64-w64-mingw32-g++-posix
runtime_dirs=()
for dll in libstdc++-6.dll libgcc_s_seh-1.dll libwinpthread-1.dll; do
  runtime_dirs+=("$(dirname "$(realpath "$($compiler -print-file-name=$dll)")")")
done
winepath=$(printf '%s\n' "${runtime_dirs[@]}" | sort -u | paste -sd ';')
export WINEPATH="$winepath${WINEPATH:+;$WINEPATH}"
export WINEPREFIX=${BACKPLANE_WINEPREFIX:-${XDG_CACHE_HOME:-$HOME/.cache}/backplane/wine-prefix}
export WINEDEBUG=${WINEDEBUG:--all}
export WINEDLLOVERRIDES=${WINEDLLOVERRIDES:-mscoree,mshtml=}  # no Mono/Gecko install prompts
if [[ ! -d $WINEPREFIX ]]; then
  mkdir -p "$(dirname "$WINEPREFIX")"
  wine wineboot --init >/dev/null 2>&1 || true
fi
exec wine "$@"
