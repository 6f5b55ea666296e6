# Moves a Release plugin's symbol table into <library>.debug beside it and strips the library,
# leaving a .gnu_debuglink section so perf and gdb still find the symbols. Runs after every link
# of a plugin built with backplane_add_backend(), before its manifest is written, so the
# manifest's sha256 is that of the stripped file. Discovery hashes every byte of every plugin at
# each Runtime::Create: the symbol table is about a fifth of a plugin's bytes.
#
#   cmake -DLIBRARY=<plugin> -DOBJCOPY=<objcopy> -DCONFIG=<build configuration> -P split_debug_symbols.cmake
#
# Does nothing for other configurations (Debug, RelWithDebInfo and the sanitizer builds keep
# their symbols in place). Fails naming the command when objcopy fails.
cmake_minimum_required(VERSION 3.16)

if(NOT CONFIG STREQUAL "Release")
  return()
endif()
foreach(_arguments IN ITEMS
        "--only-keep-debug;${LIBRARY};${LIBRARY}.debug"
        "--strip-unneeded;${LIBRARY}"
        "--add-gnu-debuglink=${LIBRARY}.debug;${LIBRARY}")
  execute_process(COMMAND "${OBJCOPY}" ${_arguments} RESULT_VARIABLE _result ERROR_VARIABLE _error)
  if(NOT _result EQUAL 0)
    message(FATAL_ERROR "${OBJCOPY} ${_arguments} failed: ${_error}")
  endif()
endforeach()
