# Moves a Release binary's symbol table into <file>.debug beside it and strips the binary,
# leaving a .gnu_debuglink section so perf and gdb still find the symbols. Runs after every link
# of a plugin built with backplane_add_backend() (before its manifest is written, so the
# manifest's sha256 is that of the stripped file) and of the SDK's own libraries and tools.
# Discovery hashes every byte of every plugin at each Runtime::Create: the symbol table is about
# a fifth of a plugin's bytes.
#
#   cmake -DLIBRARY=<binary> -DOBJCOPY=<objcopy> -DCONFIG=<build configuration>
#         [-DREADELF=<readelf> -DBUILD_ID_TREE=<folder>] -P split_debug_symbols.cmake
#
# With BUILD_ID_TREE, the .debug file is also copied to <folder>/.build-id/<xx>/<rest>.debug,
# named by the binary's GNU build id: the layout gdb searches under /usr/lib/debug, which the
# SDK's debug package installs. The copy of the binary's previous build is removed
# (<folder>/.names/<binary name> remembers it), so the tree holds one file per binary.
#
# Does nothing for other configurations (Debug, RelWithDebInfo and the sanitizer builds keep
# their symbols in place). Fails naming the command when objcopy or readelf fails, or when the
# binary has no build id.
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

if(NOT BUILD_ID_TREE)
  return()
endif()
execute_process(COMMAND "${READELF}" -n "${LIBRARY}"
  RESULT_VARIABLE _result OUTPUT_VARIABLE _notes ERROR_VARIABLE _error)
if(NOT _result EQUAL 0)
  message(FATAL_ERROR "${READELF} -n ${LIBRARY} failed: ${_error}")
endif()
if(NOT _notes MATCHES "Build ID: ([0-9a-f][0-9a-f])([0-9a-f]+)")
  message(FATAL_ERROR "${LIBRARY} has no GNU build id (link with -Wl,--build-id)")
endif()
set(_relative ".build-id/${CMAKE_MATCH_1}/${CMAKE_MATCH_2}.debug")
get_filename_component(_name "${LIBRARY}" NAME)
set(_record "${BUILD_ID_TREE}/.names/${_name}")
if(EXISTS "${_record}")
  file(READ "${_record}" _previous)
  if(NOT _previous STREQUAL _relative)
    file(REMOVE "${BUILD_ID_TREE}/${_previous}")
  endif()
endif()
get_filename_component(_folder "${BUILD_ID_TREE}/${_relative}" DIRECTORY)
file(MAKE_DIRECTORY "${_folder}")
configure_file("${LIBRARY}.debug" "${BUILD_ID_TREE}/${_relative}" COPYONLY)
file(WRITE "${_record}" "${_relative}")
