#!/usr/bin/env bash
# makensis for a 64-bit installer (CPACK_NSIS_EXECUTABLE in packaging/cmake/BackplanePackages.cmake):
# NSIS's default stub is 32-bit, which a 64-bit-only Wine cannot run and a 64-bit SDK does not
# need; Debian's nsis ships the amd64 stubs. CPack splits its own extra makensis arguments at
# spaces, so "Target amd64-unicode" is passed from here.
exec makensis "-XTarget amd64-unicode" "$@"
