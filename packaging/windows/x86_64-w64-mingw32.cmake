# CMake toolchain for cross-building Backplane for 64-bit Windows with Debian's MinGW-w64
# (g++-mingw-w64-x86-64-posix: the POSIX thread model, which std::thread and std::mutex need).
# scripts/windows.sh uses it; by hand:
#   cmake -S . -B build-windows -DCMAKE_TOOLCHAIN_FILE=packaging/windows/x86_64-w64-mingw32.cmake \
#         -DBACKPLANE_WINDOWS_DEPS=<prefix of packaging/windows/build-deps.sh>
#
# Libraries and headers come only from the prefixes listed in CMAKE_FIND_ROOT_PATH: the MinGW
# sysroot, the dependencies built by packaging/windows/build-deps.sh and its folder of links to
# the header-only libraries. Never /usr/include or /usr/lib: those are the build machine's.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)

set(_mingw x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${_mingw}-gcc-posix)
set(CMAKE_CXX_COMPILER ${_mingw}-g++-posix)
set(CMAKE_RC_COMPILER ${_mingw}-windres)
set(CMAKE_AR ${_mingw}-gcc-ar-posix CACHE FILEPATH "")
set(CMAKE_RANLIB ${_mingw}-gcc-ranlib-posix CACHE FILEPATH "")

# The dependency prefix: every folder under it with include/ or lib/ is searched (one per
# library, e.g. openssl-3.0.22, protobuf-3.21.12), plus headers/ (links to header-only ones).
set(BACKPLANE_WINDOWS_DEPS "" CACHE PATH "Prefix filled by packaging/windows/build-deps.sh")
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES BACKPLANE_WINDOWS_DEPS)
set(CMAKE_FIND_ROOT_PATH /usr/${_mingw})
if(BACKPLANE_WINDOWS_DEPS)
  file(GLOB _dep_prefixes LIST_DIRECTORIES true "${BACKPLANE_WINDOWS_DEPS}/*")
  list(APPEND CMAKE_FIND_ROOT_PATH ${_dep_prefixes})
endif()
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)   # build tools (protoc, cpack, makensis) run here
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# The executables run under Wine (wine-run.sh): ctest, and the build steps that run a built
# program. Without Wine (Debian packages wine and wine64) they are built and not run.
find_program(BACKPLANE_WINE wine)
if(BACKPLANE_WINE)
  set(CMAKE_CROSSCOMPILING_EMULATOR "${CMAKE_CURRENT_LIST_DIR}/wine-run.sh")
endif()
