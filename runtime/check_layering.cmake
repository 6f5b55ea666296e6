# The runtime's folders depend only downwards. Lowest first:
#
#   platform   OS calls, files, processes, message text     (includes no other folder)
#   loading    libraries, entry points, the C boundary, registry, target tags, API versions
#   discovery  search paths, manifests, candidates: finds libraries and has `loading` load them
#   isolation  probing a plugin in a child process, verdicts (keys: discovery's sha256)
#   graph      network graph, passes, placement, tensor-handle strategy, host memory
#   execution  compiled network, execution context, memory plan
#
# A file in runtime/src/<folder>/ (sources and tests alike) may include "<folder>/..." headers
# of its own folder and of the folders before it, never of one after it. The headers at
# runtime/src/ itself (log.hpp, impl_access.hpp) include no folder; every folder may use log.hpp.
# runtime.cpp sits above all folders, and so does the application header of its Runtime class:
# no folder includes <backplane/runtime.hpp> (the option and info types they share are in
# <backplane/runtime_options.hpp>), and only runtime.cpp wraps and unwraps application objects
# (impl_access.hpp; a folder's tests may, to reach the Network they built). runtime/probe/ (the
# plugin probe executable) stands at isolation's level. A new folder must be added to LAYERS
# below before it may hold files. This comment is where the order is written down (docs/
# describes no runtime internals); scripts/layer_arrows.py draws the arrows between the layers
# and counts those that point up.
#
# Run:  cmake -DRUNTIME_DIR=<repo>/runtime -P check_layering.cmake       checks the tree
#       cmake -DSELF_TEST_DIR=<scratch folder> -P check_layering.cmake   checks the check: a
#         made-up tree with an upward include must fail and one without must pass.
# Fails (FATAL_ERROR) listing every include that points up and the file it is in.
cmake_minimum_required(VERSION 3.20)

set(LAYERS platform loading discovery isolation graph execution)
list(LENGTH LAYERS LAYERS_COUNT)
list(JOIN LAYERS " <- " ORDER_TEXT)

# Appends to `out_var` one line per violation under `src_dir` (a runtime/src) and `probe_dir`.
function(check_tree src_dir probe_dir out_var)
  set(violations "")
  file(GLOB_RECURSE files LIST_DIRECTORIES false RELATIVE "${src_dir}" "${src_dir}/*.hpp" "${src_dir}/*.cpp")
  set(probe_files "")
  if(probe_dir AND EXISTS "${probe_dir}")
    file(GLOB_RECURSE probe_files LIST_DIRECTORIES false "${probe_dir}/*.hpp" "${probe_dir}/*.cpp")
  endif()
  foreach(entry IN LISTS files probe_files)
    if(IS_ABSOLUTE "${entry}")  # a probe file
      set(path "${entry}")
      file(RELATIVE_PATH shown "${probe_dir}/.." "${entry}")
      list(FIND LAYERS isolation rank)
    else()
      set(path "${src_dir}/${entry}")
      set(shown "src/${entry}")
      if(entry MATCHES "^([^/]+)/")
        set(folder "${CMAKE_MATCH_1}")
        list(FIND LAYERS "${folder}" rank)
        if(rank EQUAL -1)
          list(APPEND violations "${shown}: folder '${folder}' is not in the layer order (check_layering.cmake)")
          continue()
        endif()
      elseif(entry MATCHES "\\.hpp$")
        set(rank -1)  # a shared header: includes no folder
      else()
        list(LENGTH LAYERS rank)  # runtime.cpp: above every folder
      endif()
    endif()
    file(STRINGS "${path}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<]")
    foreach(line IN LISTS lines)
      if(NOT line MATCHES "[\"<]([^\">]+)[\">]")
        continue()
      endif()
      set(included "${CMAKE_MATCH_1}")
      if(rank GREATER_EQUAL 0 AND rank LESS LAYERS_COUNT AND NOT IS_ABSOLUTE "${entry}")  # a folder's file
        if(included STREQUAL "backplane/runtime.hpp")
          string(CONCAT text "${shown}: includes <backplane/runtime.hpp>, the application header above every "
                             "folder (the types they share: <backplane/runtime_options.hpp>)")
          list(APPEND violations "${text}")
        elseif(included STREQUAL "impl_access.hpp" AND NOT entry MATCHES "_test\\.cpp$")
          list(APPEND violations "${shown}: includes \"impl_access.hpp\": only runtime.cpp wraps application objects")
        endif()
      endif()
      if(NOT included MATCHES "^([^/]+)/")
        continue()  # a sibling or root header
      endif()
      list(FIND LAYERS "${CMAKE_MATCH_1}" included_rank)
      if(included_rank EQUAL -1)
        continue()  # not a runtime folder (e.g. "backplane/...")
      endif()
      if(included_rank GREATER rank)
        if(rank EQUAL -1)
          list(APPEND violations "${shown}: includes \"${included}\", but a header at runtime/src/ includes no folder")
        else()
          list(APPEND violations "${shown}: includes \"${included}\", a folder above its own (order: ${ORDER_TEXT})")
        endif()
      endif()
    endforeach()
  endforeach()
  set(${out_var} "${violations}" PARENT_SCOPE)
endfunction()

if(DEFINED SELF_TEST_DIR)
  set(bad "${SELF_TEST_DIR}/bad")
  set(good "${SELF_TEST_DIR}/good")
  file(REMOVE_RECURSE "${SELF_TEST_DIR}")
  file(WRITE "${good}/src/platform/a.hpp" "#pragma once\n#include <string>\n")
  file(WRITE "${good}/src/graph/b.cpp" "#include \"graph/b.hpp\"\n#include \"loading/c.hpp\"\n#include \"log.hpp\"\n")
  file(WRITE "${good}/src/runtime.cpp" "#include \"execution/d.hpp\"\n#include \"impl_access.hpp\"\n"
                                      "#include <backplane/runtime.hpp>\n")
  file(WRITE "${good}/src/graph/b_test.cpp" "#include \"impl_access.hpp\"\n#include <backplane/runtime_options.hpp>\n")
  file(WRITE "${good}/probe/main.cpp" "#include \"isolation/probe_report.hpp\"\n")
  file(COPY "${good}/" DESTINATION "${bad}")
  file(APPEND "${bad}/src/graph/b.cpp" "  #  include \"execution/host_tensor.hpp\"\n")
  file(WRITE "${bad}/src/log.hpp" "#include \"platform/a.hpp\"\n")
  file(WRITE "${bad}/probe/other.cpp" "#include \"graph/b.hpp\"\n")
  file(WRITE "${bad}/src/utils/e.cpp" "\n")
  file(WRITE "${bad}/src/loading/f.hpp" "#include <backplane/runtime.hpp>\n")
  file(WRITE "${bad}/src/execution/g.cpp" "#include \"impl_access.hpp\"\n")
  check_tree("${good}/src" "${good}/probe" good_found)
  check_tree("${bad}/src" "${bad}/probe" bad_found)
  list(LENGTH bad_found bad_count)
  if(good_found OR NOT bad_count EQUAL 6)
    list(JOIN good_found "\n  " good_text)
    list(JOIN bad_found "\n  " bad_text)
    message(FATAL_ERROR "check_layering.cmake is broken: the good tree gave\n  ${good_text}\n"
                        "and the bad tree (6 violations expected) gave\n  ${bad_text}")
  endif()
  file(REMOVE_RECURSE "${SELF_TEST_DIR}")
  message(STATUS "check_layering.cmake finds upward includes, shared headers that include folders, "
                 "the probe reaching up, unknown folders, and folders that include the application header "
                 "or wrap application objects")
  return()
endif()

if(NOT DEFINED RUNTIME_DIR)
  message(FATAL_ERROR "usage: cmake -DRUNTIME_DIR=<repo>/runtime -P check_layering.cmake")
endif()
check_tree("${RUNTIME_DIR}/src" "${RUNTIME_DIR}/probe" found)
if(found)
  list(JOIN found "\n  " text)
  message(FATAL_ERROR "runtime/src folders must include only folders below them:\n  ${text}")
endif()
message(STATUS "runtime/src includes follow the layer order: ${ORDER_TEXT}")
