#!/usr/bin/env bash
# Installs the Debian 12 packages Backplane needs to build and test, and only those missing.
# Idempotent and non-interactive: when everything is present it changes nothing and needs no
# network; otherwise it runs apt-get update once, then installs what is missing. Uses sudo
# only when not run as root. Exits non-zero if a package cannot be installed.
#   --windows   also what the Windows cross-build needs (scripts/windows.sh): MinGW-w64, Wine,
#               NSIS, protoc, and a deb-src entry so Debian's source packages can be fetched.
set -euo pipefail

windows=false
case ${1:-} in
  "") ;;
  --windows) windows=true ;;
  *) echo "install-deps: unknown argument '$1' (known: --windows)" >&2; exit 64 ;;
esac

packages=(
  build-essential
  cmake
  ninja-build
  libboost-dev
  libboost-program-options-dev
  nlohmann-json3-dev
  doctest-dev
  libssl-dev
  libarchive-dev       # sdk-plugin installs .tar.gz/.tgz/.zip drops (without it: folders only)
  libonnx-dev          # the ONNX importer (runtime/onnx): libonnx's protobuf classes
  libprotobuf-dev
  libonnx-testdata     # the ONNX backend test suite, run in-process on each runner (tests/conformance)
  libdnnl-dev          # the oneDNN CPU backend (plugins/onednn)
  ocl-icd-opencl-dev   # the OpenCL GPU backend (plugins/opencl): ICD loader
  opencl-headers
  libclblast-dev       # CLBlast, the tuned OpenCL BLAS GpuOpenCl runs its GEMMs on
  pocl-opencl-icd      # OpenCL on the CPU, so the OpenCL backend's tests run without a GPU
  python3
  python3-jsonschema   # the manifest schema test (manifests/check_manifest.py)
  clang                # the fuzz targets (tests/fuzz, scripts/fuzz.sh): libFuzzer needs Clang
  libclang-rt-dev      # Clang's runtimes: libFuzzer, ASan, UBSan (only recommended by clang)
  libc++-dev           # tests/abi: a plugin built with clang++ -stdlib=libc++ loads into the runtime
  libc++abi-dev
  abigail-tools        # tests/abi: abidw reads the C boundary's layout for the ABI baseline check
  help2man             # the tools' man pages, made from their --help at build time
  lintian              # packaging test: the DEB packages have no lintian error or warning
  ccache               # build.sh: rebuilds, and the packaging tests' second build tree, from a cache
  gdb                  # packaging test: gdb finds the packaged binaries' symbols in backplane-dbg
)
if $windows; then
  packages+=(
    g++-mingw-w64-x86-64-posix  # the cross compiler (POSIX threads: std::thread, std::mutex)
    wine64                      # runs the Windows tests and the installer here
    wine                        # its `wine` command (wine64 only recommends it; the toolchain looks for it)
    nsis                        # cpack -G NSIS: the Windows installer
    protobuf-compiler           # protoc for ONNX's protobuf classes (packaging/windows/build-deps.sh)
    dpkg-dev                    # dpkg-source: apt-get source unpacks and patches with it
    zip                         # cpack -G ZIP
  )
fi

missing=()
for package in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$package" 2>/dev/null || true)
  if [[ "$status" != "installed" ]]; then
    missing+=("$package")
  fi
done

if [[ $(id -u) -eq 0 ]]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  as_root=(false)  # fails below, with the message, only when something is to be done
fi

# A deb-src entry for each deb entry of the machine's deb822 sources, in a file of its own
# (packaging/windows/build-deps.sh fetches Debian's source packages). Derived from the
# machine's own entries, never a host name of ours.
deb_src_file=/etc/apt/sources.list.d/backplane-deb-src.sources
need_source_update=false
if $windows && ! grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ && ! grep -qs '^deb-src' /etc/apt/sources.list; then
  entries=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | sed -n '/^Types:/,$p' | sed 's/^Types: *deb$/Types: deb-src/')
  if [[ -z $entries ]]; then
    echo "install-deps: no deb822 apt sources in /etc/apt/sources.list.d to derive a deb-src entry from" >&2
    exit 1
  fi
  if [[ ${as_root[0]:-} == false ]]; then
    echo "install-deps: $deb_src_file is needed (deb-src entries for Debian's source packages); run as root or install sudo" >&2
    exit 1
  fi
  echo "install-deps: adding $deb_src_file (deb-src entries of the machine's apt sources)"
  printf '# Added by Backplane'"'"'s scripts/install-deps.sh --windows: the machine'"'"'s deb entries as deb-src.\n%s\n' \
    "$entries" | "${as_root[@]}" tee "$deb_src_file" >/dev/null
  need_source_update=true
fi

if [[ ${#missing[@]} -eq 0 ]] && ! $need_source_update; then
  echo "install-deps: all ${#packages[@]} packages are installed"
  exit 0
fi
if [[ ${as_root[0]:-} == false ]]; then
  echo "install-deps: missing ${missing[*]:-nothing} (or the deb-src entry); run as root or install sudo" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
if [[ ${#missing[@]} -gt 0 ]]; then
  echo "install-deps: installing ${missing[*]}"
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
