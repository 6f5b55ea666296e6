#!/usr/bin/env bash
# Installs the Debian 12 packages Backplane needs to build and test, and only those missing.
# Idempotent and non-interactive: when everything is present it changes nothing and needs no
# network; otherwise it runs apt-get update once, then installs what is missing. Uses sudo
# only when not run as root. Exits non-zero if a package cannot be installed.
set -euo pipefail

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
)

missing=()
for package in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$package" 2>/dev/null || true)
  if [[ "$status" != "installed" ]]; then
    missing+=("$package")
  fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all ${#packages[@]} packages are installed"
  exit 0
fi

if [[ $(id -u) -eq 0 ]]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  echo "install-deps: missing ${missing[*]}; run as root or install sudo" >&2
  exit 1
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
  apt-get install -y -q --no-install-recommends "${missing[@]}"
