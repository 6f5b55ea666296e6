# Checks that libbackplane exports only its application API: every strong (not weak or
# template) `backplane::` symbol in its dynamic symbol table must be a class or function that a
# header of runtime/include marks BACKPLANE_RUNTIME_API. Fails naming each other symbol, so an
# internal function that leaks out of the hidden-by-default library is caught.
#
#   cmake -DLIBRARY=<libbackplane.so> -DHEADERS=<runtime/include/backplane> -DNM=<nm> -P check_exports.cmake
cmake_minimum_required(VERSION 3.16)

file(GLOB headers "${HEADERS}/*.hpp")
set(exported_names "")
foreach(header IN LISTS headers)
  file(STRINGS "${header}" lines REGEX "BACKPLANE_RUNTIME_API")
  foreach(line IN LISTS lines)
    # "class BACKPLANE_RUNTIME_API Runtime {" or "BACKPLANE_RUNTIME_API const char* ToString(...)"
    if(line MATCHES "(class|struct) BACKPLANE_RUNTIME_API ([A-Za-z_][A-Za-z0-9_]*)")
      list(APPEND exported_names "${CMAKE_MATCH_2}")
    elseif(line MATCHES "BACKPLANE_RUNTIME_API [^(]*[ *&]([A-Za-z_][A-Za-z0-9_]*)\\(")
      list(APPEND exported_names "${CMAKE_MATCH_1}")
    endif()
  endforeach()
endforeach()
list(REMOVE_DUPLICATES exported_names)
if(NOT exported_names)
  message(FATAL_ERROR "no BACKPLANE_RUNTIME_API declarations found under ${HEADERS}")
endif()

execute_process(COMMAND "${NM}" -DC --defined-only "${LIBRARY}"
                OUTPUT_VARIABLE symbols RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "${NM} failed on ${LIBRARY}")
endif()
string(REPLACE "\n" ";" symbols "${symbols}")
set(leaks "")
foreach(symbol IN LISTS symbols)
  # "<address> <kind> <name>": weak symbols (V, W, u) are inline and template instantiations.
  if(NOT symbol MATCHES "^[0-9a-f]+ ([A-Za-z]) (.*)$")
    continue()
  endif()
  set(kind "${CMAKE_MATCH_1}")
  set(name "${CMAKE_MATCH_2}")
  if(kind MATCHES "^[VWvwu]$" OR NOT name MATCHES "^(typeinfo for |typeinfo name for |vtable for )?backplane::")
    continue()
  endif()
  string(REGEX REPLACE "^(typeinfo for |typeinfo name for |vtable for )" "" qualified "${name}")
  # The first name below `backplane::` (the class, or the free function).
  if(NOT qualified MATCHES "^backplane::([A-Za-z_][A-Za-z0-9_]*)")
    list(APPEND leaks "${name}")
    continue()
  endif()
  list(FIND exported_names "${CMAKE_MATCH_1}" found)
  if(found EQUAL -1)
    list(APPEND leaks "${name}")
  endif()
endforeach()
if(leaks)
  list(JOIN leaks "\n  " text)
  message(FATAL_ERROR "${LIBRARY} exports symbols outside its application API (mark them BACKPLANE_RUNTIME_API "
                      "in runtime/include if they are public, else keep them hidden):\n  ${text}")
endif()
list(LENGTH exported_names count)
message(STATUS "libbackplane exports only the ${count} names marked BACKPLANE_RUNTIME_API")
