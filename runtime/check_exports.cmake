# Checks that a library of the application API exports only what its headers mark: every strong
# (not weak or template) `backplane::` symbol in its dynamic symbol table must be a class or
# function that a header in HEADERS marks with MACRO (BACKPLANE_RUNTIME_API for libbackplane,
# BACKPLANE_ONNX_API for libbackplane_onnx). Fails naming each other symbol, so an internal
# function that leaks out of the hidden-by-default library is caught; so is any symbol, weak or
# not, of a namespace other than backplane's and the C++ library's. Namespaces are lower case
# and classes and functions CamelCase (house style), which is how a name is told from the
# namespaces around it.
#
#   cmake -DLIBRARY=<libbackplane.so> -DHEADERS=<runtime/include/backplane> -DNM=<nm>
#         [-DMACRO=BACKPLANE_RUNTIME_API] -P check_exports.cmake
cmake_minimum_required(VERSION 3.16)
if(NOT MACRO)
  set(MACRO BACKPLANE_RUNTIME_API)
endif()

file(GLOB headers "${HEADERS}/*.hpp")
set(exported_names "")
foreach(header IN LISTS headers)
  file(STRINGS "${header}" lines REGEX "${MACRO}")
  foreach(line IN LISTS lines)
    # "class BACKPLANE_RUNTIME_API Runtime {" or "BACKPLANE_RUNTIME_API const char* ToString(...)"
    if(line MATCHES "(class|struct) ${MACRO} ([A-Za-z_][A-Za-z0-9_]*)")
      list(APPEND exported_names "${CMAKE_MATCH_2}")
    elseif(line MATCHES "${MACRO} [^(]*[ *&]([A-Za-z_][A-Za-z0-9_]*)\\(")
      list(APPEND exported_names "${CMAKE_MATCH_1}")
    endif()
  endforeach()
endforeach()
list(REMOVE_DUPLICATES exported_names)
if(NOT exported_names)
  message(FATAL_ERROR "no ${MACRO} declarations found under ${HEADERS}")
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
  # No symbol of any kind may name a third-party namespace (Boost marks some of its header-only
  # classes visible; the library's version script keeps them in): the outermost namespace of
  # every qualified name in it must be ours or the C++ library's.
  string(REGEX MATCHALL "[^A-Za-z0-9_:][A-Za-z_][A-Za-z0-9_]*::" outermost " ${name}")
  set(foreign FALSE)
  foreach(qualifier IN LISTS outermost)
    string(SUBSTRING "${qualifier}" 1 -1 qualifier)
    if(NOT qualifier MATCHES "^(backplane|std|__gnu_cxx|__cxxabiv1)::$")
      set(foreign TRUE)
    endif()
  endforeach()
  if(foreign)
    list(APPEND leaks "${name}")
    continue()
  endif()
  if(kind MATCHES "^[VWvwu]$" OR NOT name MATCHES "^(typeinfo for |typeinfo name for |vtable for )?backplane::")
    continue()
  endif()
  string(REGEX REPLACE "^(typeinfo for |typeinfo name for |vtable for )" "" qualified "${name}")
  # The first name below `backplane::` and its lower-case namespaces (the class, or the free
  # function).
  if(NOT qualified MATCHES "^backplane::([a-z_][a-z0-9_]*::)*([A-Z][A-Za-z0-9_]*)")
    list(APPEND leaks "${name}")
    continue()
  endif()
  list(FIND exported_names "${CMAKE_MATCH_2}" found)
  if(found EQUAL -1)
    list(APPEND leaks "${name}")
  endif()
endforeach()
if(leaks)
  list(JOIN leaks "\n  " text)
  message(FATAL_ERROR "${LIBRARY} exports symbols outside its application API (mark them ${MACRO} "
                      "in ${HEADERS} if they are public, else keep them hidden):\n  ${text}")
endif()
list(LENGTH exported_names count)
get_filename_component(library_name "${LIBRARY}" NAME)
message(STATUS "${library_name} exports only the ${count} names marked ${MACRO}")
