#!/usr/bin/env bash
# Builds Backplane's compiled dependencies for Windows (x86_64-w64-mingw32) from Debian's own
# source packages, once per machine, into a cache outside the repository:
#   $BACKPLANE_WINDOWS_DEPS (default ${XDG_CACHE_HOME:-~/.cache}/backplane/windows-deps)/
#     headers/             links to the header-only libraries and their CMake files (Boost,
#                          nlohmann_json, doctest, the OpenCL headers), nothing else of /usr
#     <name>-<version>/    one prefix per library, keyed by its Debian source version and the
#                          compiler's version; an existing one with a .complete mark is reused
# Usage: build-deps.sh [LIBRARY...] (default: all of them). Prints the cache folder last.
#
# Needs the deb-src entry scripts/windows.sh adds. A library that fails to build stops the script
# with its log's tail; nothing half-built is marked complete.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
deps=${BACKPLANE_WINDOWS_DEPS:-${XDG_CACHE_HOME:-$HOME/.cache}/backplane/windows-deps}
host=x86_64-w64-mingw32
cc=$host-gcc-posix
cxx=$host-g++-posix
compiler_version=$($cxx -dumpversion)
jobs=$(nproc)
mkdir -p "$deps"
work=$(mktemp -d "${TMPDIR:-/tmp}/backplane-windows-deps.XXXXXX")
trap 'rm -rf "$work"' EXIT

# source_versions PACKAGE: the versions the deb-src entries offer, newest first.
source_versions() {
  apt-cache showsrc --only-source "$1" | sed -n 's/^Version: //p' | sort -rV | uniq
}

# from_source PACKAGE NAME BUILDER [--download-only]: builds NAME from the newest version of
# Debian's source PACKAGE that can be fetched (a security update's files are not always on the
# mirror: an older version is then taken), unless a complete prefix of a version tried before it
# exists. Calls "BUILDER SOURCE_FOLDER PREFIX" in a fresh prefix: SOURCE_FOLDER is the unpacked
# source with Debian's patches applied, or with --download-only the folder holding the files.
from_source() {
  local package=$1 name=$2 builder=$3 download_only=${4:-} version prefix fetch
  for version in $(source_versions "$package"); do
    prefix=$(prefix_for "$name" "$version")
    if [[ -e $prefix/.complete ]]; then
      echo "build-deps: $name $version: reusing $prefix" >&2
      return
    fi
    fetch=$work/$package-$version
    mkdir -p "$fetch"
    if (cd "$fetch" && apt-get source -q $download_only "$package=$version" >"$fetch.log" 2>&1); then
      echo "build-deps: $name $version from Debian's source package $package" >&2
      rm -rf "$prefix"
      mkdir -p "$prefix"
      local src=$fetch
      [[ -n $download_only ]] || src=$(find "$fetch" -mindepth 1 -maxdepth 1 -type d -print -quit)
      "$builder" "$src" "$prefix"
      touch "$prefix/.complete"
      return
    fi
    echo "build-deps: $package $version cannot be fetched ($(grep -m1 -o '[0-9]\{3\} .*' "$fetch.log" || echo 'see apt-get'))" >&2
  done
  echo "build-deps: no version of Debian's source package $package could be fetched; is the deb-src entry there? (scripts/windows.sh adds it)" >&2
  return 1
}

# run_logged NAME COMMAND...: runs the command with its output in a log; on failure prints the
# log's tail and fails.
run_logged() {
  local name=$1
  shift
  if ! "$@" >"$work/$name.log" 2>&1; then
    tail -n 40 "$work/$name.log" >&2
    echo "build-deps: $name failed: $*" >&2
    return 1
  fi
}

# prefix_for NAME VERSION: the cache prefix of one library build.
prefix_for() {
  echo "$deps/$1-${2//[^A-Za-z0-9.+~-]/_}-gcc$compiler_version"
}

# complete_prefix NAME: the newest complete prefix of NAME for this compiler; fails if none.
complete_prefix() {
  local prefix
  for prefix in $(find "$deps" -mindepth 1 -maxdepth 1 -type d -name "$1-*-gcc$compiler_version" | sort -rV); do
    [[ -e $prefix/.complete ]] && { echo "$prefix"; return; }
  done
  return 1
}

# ---- header-only libraries: links, never a copy of /usr/include --------------------------------
headers() {
  local h=$deps/headers
  rm -rf "$h"
  mkdir -p "$h/include" "$h/lib/cmake" "$h/share/cmake"
  ln -s /usr/include/boost "$h/include/boost"
  ln -s /usr/include/nlohmann "$h/include/nlohmann"
  ln -s /usr/include/doctest "$h/include/doctest"
  ln -s /usr/include/CL "$h/include/CL"
  # doctest's CMake files, but its own targets file, which names /usr/include.
  mkdir -p "$h/lib/cmake/doctest"
  local file
  for file in doctestConfig.cmake doctestConfigVersion.cmake doctest.cmake doctestAddTests.cmake; do
    ln -s "/usr/lib/cmake/doctest/$file" "$h/lib/cmake/doctest/$file"
  done
  cat >"$h/lib/cmake/doctest/doctestTargets.cmake" <<'TARGETS'
# doctest::doctest for the Windows cross-build: the header in this prefix's include folder.
add_library(doctest::doctest INTERFACE IMPORTED)
set_target_properties(doctest::doctest PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES "${CMAKE_CURRENT_LIST_DIR}/../../../include")
TARGETS
  ln -s /usr/share/cmake/nlohmann_json "$h/share/cmake/nlohmann_json"
}

# ---- Boost.Program_options (boost1.74): its sources alone, compiled to a static library -------
build_boost() {
  local files=$1 prefix=$2 file src
  # The whole tree is 600 MB; Debian's patches do not touch program_options.
  tar -xf "$files"/boost1.74_*.orig.tar.xz -C "$files" --wildcards '*/libs/program_options/src/*'
  src=$(find "$files" -mindepth 1 -maxdepth 1 -type d -name 'boost*' -print -quit)
  mkdir -p "$prefix/lib" "$prefix/include" "$work/boost-obj"
  for file in "$src"/libs/program_options/src/*.cpp; do
    run_logged boost "$cxx" -std=c++17 -O2 -DNDEBUG -I"$deps/headers/include" \
      -c "$file" -o "$work/boost-obj/$(basename "$file" .cpp).o"
  done
  $host-gcc-ar-posix rcs "$prefix/lib/libboost_program_options.a" "$work"/boost-obj/*.o
  ln -s /usr/include/boost "$prefix/include/boost"
}
boost_program_options() { from_source boost1.74 boost build_boost --download-only; }

# ---- OpenSSL: libcrypto (SHA-256, Ed25519 signatures, PEM keys), static --------------------------
# libcrypto alone, without libssl and the algorithms Backplane never calls (half the build time;
# CI builds it on every run).
build_openssl() {
  local src=$1 prefix=$2
  (cd "$src" && run_logged openssl-configure ./Configure mingw64 --cross-compile-prefix=$host- \
     no-shared no-tests no-module no-legacy no-engine no-sock no-dgram \
     no-aria no-bf no-camellia no-cast no-cms no-ct no-dh no-dsa no-ec2m no-idea no-md4 no-mdc2 \
     no-ocb no-ocsp no-rc2 no-rc4 no-rmd160 no-seed no-siphash no-sm2 no-sm3 no-sm4 no-srp no-ts \
     no-whirlpool --prefix="$prefix" --libdir=lib \
     CC=gcc-posix CXX=g++-posix AR=gcc-ar-posix RANLIB=gcc-ranlib-posix)
  (cd "$src" && run_logged openssl-headers make -j"$jobs" build_generated)
  (cd "$src" && run_logged openssl-build make -j"$jobs" libcrypto.a)
  mkdir -p "$prefix/include" "$prefix/lib"
  cp -r "$src/include/openssl" "$prefix/include/"
  cp "$src/libcrypto.a" "$prefix/lib/"
}
openssl() { from_source openssl openssl build_openssl; }

# ---- protobuf: libprotobuf, static (protoc runs on the build machine: Debian's, same version) ---
build_protobuf() {
  local src=$1 prefix=$2
  run_logged protobuf-configure cmake -S "$src" -B "$work/protobuf-build" -G Ninja \
    -DCMAKE_TOOLCHAIN_FILE="$here/x86_64-w64-mingw32.cmake" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_INSTALL_PREFIX="$prefix" -Dprotobuf_BUILD_TESTS=OFF \
    -Dprotobuf_BUILD_PROTOC_BINARIES=OFF -Dprotobuf_BUILD_LIBPROTOC=OFF \
    -Dprotobuf_BUILD_SHARED_LIBS=OFF -Dprotobuf_WITH_ZLIB=OFF
  run_logged protobuf-build cmake --build "$work/protobuf-build" -j "$jobs"
  run_logged protobuf-install cmake --install "$work/protobuf-build"
}
protobuf() { from_source protobuf protobuf build_protobuf; }

# ---- ONNX's protobuf classes (onnx_proto), static ----------------------------------------------
# Debian's onnx source package cannot be fetched here (its files answer 404), so this compiles
# the one thing the importer needs from onnx, its protobuf classes, from the onnx.proto that
# libonnx-dev ships, with Debian's protoc (the same protobuf version as the library above).
# Without ONNX_ML: onnx/onnx_pb.h then includes onnx/onnx.pb.h; the ML-only messages are not
# read by the importer.
onnx_proto() {
  local version protobuf_prefix prefix
  version=$(dpkg-query -W -f='${Version}' libonnx-dev)
  protobuf_prefix=$(complete_prefix protobuf) || { echo "build-deps: onnx_proto needs protobuf first" >&2; return 1; }
  local protobuf_version=${protobuf_prefix##*/protobuf-}
  prefix=$(prefix_for onnx "$version-protobuf${protobuf_version%-gcc*}")
  [[ -e $prefix/.complete ]] && return
  rm -rf "$prefix"
  mkdir -p "$prefix/include/onnx" "$prefix/lib/cmake/ONNX"
  run_logged onnx-protoc protoc -I/usr/include --cpp_out="$prefix/include" /usr/include/onnx/onnx.proto
  cp /usr/include/onnx/onnx_pb.h "$prefix/include/onnx/"
  run_logged onnx-compile "$cxx" -std=c++17 -O2 -DNDEBUG -I"$prefix/include" \
    -I"$protobuf_prefix/include" -c "$prefix/include/onnx/onnx.pb.cc" -o "$work/onnx.pb.o"
  rm "$prefix/include/onnx/onnx.pb.cc"
  $host-gcc-ar-posix rcs "$prefix/lib/libonnx_proto.a" "$work/onnx.pb.o"
  # The target Debian's ONNXConfig.cmake defines, with the same name and usage requirements.
  cat >"$prefix/lib/cmake/ONNX/ONNXConfig.cmake" <<'CONFIG'
# onnx_proto: ONNX's protobuf classes built by Backplane's packaging/windows/build-deps.sh.
if(NOT TARGET onnx_proto)
  get_filename_component(_onnx_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
  if(NOT TARGET protobuf::libprotobuf)
    find_package(Protobuf REQUIRED)
  endif()
  add_library(onnx_proto STATIC IMPORTED)
  set_target_properties(onnx_proto PROPERTIES
    IMPORTED_LOCATION "${_onnx_prefix}/lib/libonnx_proto.a"
    INTERFACE_INCLUDE_DIRECTORIES "${_onnx_prefix}/include"
    INTERFACE_COMPILE_DEFINITIONS "ONNX_NAMESPACE=onnx"
    INTERFACE_LINK_LIBRARIES protobuf::libprotobuf)
endif()
CONFIG
  touch "$prefix/.complete"
}

# ---- OpenCL: an import library for the system's OpenCL.dll -------------------------------------
# Windows has the ICD loader as OpenCL.dll (GPU drivers install it; Wine's maps to the host's
# OpenCL), so a program needs only an import library, not the loader's sources (Debian's ocl-icd
# is the Linux loader; its source package cannot be fetched here either). The library is made
# with MinGW's dlltool from every entry point the Khronos headers (opencl-headers) declare, and
# keyed by their version: a program links against what it calls, which the headers' OpenCL
# version (CL_TARGET_OPENCL_VERSION) bounds.
opencl() {
  local version prefix
  version=$(dpkg-query -W -f='${Version}' opencl-c-headers)
  prefix=$(prefix_for opencl "$version")
  [[ -e $prefix/.complete ]] && return
  rm -rf "$prefix"
  mkdir -p "$prefix/include" "$prefix/lib"
  ln -s /usr/include/CL "$prefix/include/CL"
  {
    echo "LIBRARY OpenCL.dll"
    echo "EXPORTS"
    perl -0ne 'print "$1\n" while /CL_API_CALL\s+(cl\w+)\s*\(/g' /usr/include/CL/cl.h | sort -u
  } >"$work/OpenCL.def"
  if [[ $(grep -c '^cl' "$work/OpenCL.def") -lt 50 ]]; then
    echo "build-deps: found too few entry points in /usr/include/CL/cl.h for OpenCL.dll's import library" >&2
    return 1
  fi
  run_logged opencl-dlltool $host-dlltool -d "$work/OpenCL.def" -D OpenCL.dll -l "$prefix/lib/libOpenCL.dll.a"
  touch "$prefix/.complete"
}

all=(headers boost_program_options openssl protobuf onnx_proto opencl)
selected=("$@")
[[ ${#selected[@]} -gt 0 ]] || selected=("${all[@]}")
headers
for library in "${selected[@]}"; do
  case " ${all[*]} " in
    *" $library "*) ;;
    *) echo "build-deps: unknown library '$library' (known: ${all[*]})" >&2; exit 64 ;;
  esac
  [[ $library == headers ]] && continue
  started=$SECONDS
  echo "build-deps: $library" >&2
  "$library"
  echo "build-deps: $library ready ($((SECONDS - started)) s)" >&2
done
echo "$deps"
