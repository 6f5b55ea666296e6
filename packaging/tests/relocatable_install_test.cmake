# ctest "packaging: a copied install tree finds its own backends": copies the installed SDK
# (the fixture's prefix) to another folder and checks that the copy's sdk-info loads every
# plugin from the copy, through the default folder relative to the copy's libbackplane (no
# --path, no BACKPLANE_BACKEND_PATHS), and CpuRef among them; under policy require, each
# verified with the build key in the copy's own trusted-keys folder.
#
#   cmake -DPREFIX=<installed prefix> -DWORK=<scratch folder> -DBACKEND_SUBDIR=<lib/backplane/backends>
#         -P relocatable_install_test.cmake
foreach(_name IN ITEMS PREFIX WORK BACKEND_SUBDIR)
  if(NOT DEFINED ${_name})
    message(FATAL_ERROR "${_name} is not set")
  endif()
endforeach()
if(NOT EXISTS "${PREFIX}/bin")
  message(FATAL_ERROR "no installed SDK at ${PREFIX} (the install fixture did not run)")
endif()

file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(_copy "${WORK}/moved elsewhere/sdk")  # a space in the path on purpose
get_filename_component(_parent "${_copy}" DIRECTORY)
file(MAKE_DIRECTORY "${_parent}")
find_program(_cp cp)
if(_cp)
  execute_process(COMMAND "${_cp}" -a "${PREFIX}" "${_copy}" RESULT_VARIABLE _result)
else()
  file(COPY "${PREFIX}/" DESTINATION "${_copy}")  # copies symlinks as symlinks
  set(_result 0)
endif()
if(NOT _result EQUAL 0)
  message(FATAL_ERROR "copying ${PREFIX} to ${_copy} failed")
endif()

set(ENV{BACKPLANE_BACKEND_PATHS} "")
set(ENV{BACKPLANE_ADD_BACKEND_PATHS} "")
set(ENV{XDG_DATA_HOME} "${_parent}/no-user-drops")  # the user's drop folder: absent
set(ENV{XDG_CONFIG_HOME} "${_parent}/no-user-config")  # no user's trusted keys
set(ENV{BACKPLANE_TRUST_POLICY} "require")  # only backends signed by a trusted key
execute_process(COMMAND "${_copy}/bin/sdk-info" --json --no-static
                RESULT_VARIABLE _exit OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
if(NOT _exit EQUAL 0)
  message(FATAL_ERROR "the copy's sdk-info exited ${_exit}\n${_out}\n${_err}")
endif()

# The layers: the drop folders (absent here) and, last, the installation's own folder.
string(JSON _paths LENGTH "${_out}" search_paths)
math(EXPR _last "${_paths} - 1")
if(_paths LESS 1)
  message(FATAL_ERROR "expected the default folder among the search folders, got none:\n${_out}")
endif()
string(JSON _source GET "${_out}" search_paths ${_last} source)
string(JSON _folder GET "${_out}" search_paths ${_last} path)
file(REAL_PATH "${_copy}/${BACKEND_SUBDIR}" _expected_folder)
file(REAL_PATH "${_folder}" _folder_real)
if(NOT _source STREQUAL "default" OR NOT _folder_real STREQUAL _expected_folder)
  message(FATAL_ERROR "searched ${_folder} (${_source}), expected the default folder ${_expected_folder}")
endif()

string(JSON _count LENGTH "${_out}" backends)
set(_found OFF)
if(_count GREATER 0)
  math(EXPR _last "${_count} - 1")
  foreach(_i RANGE ${_last})
    string(JSON _id GET "${_out}" backends ${_i} id)
    string(JSON _library GET "${_out}" backends ${_i} library_path)
    file(REAL_PATH "${_library}" _library_real)
    file(REAL_PATH "${_copy}" _copy_real)
    string(FIND "${_library_real}" "${_copy_real}/" _at)
    if(NOT _at EQUAL 0)
      message(FATAL_ERROR "backend ${_id} was loaded from ${_library}, outside the copy ${_copy}")
    endif()
    # Verified with the build key of the copy's own trusted-keys folder, found from the copy's
    # libbackplane like the backend folder.
    string(JSON _status GET "${_out}" backends ${_i} signature status)
    string(JSON _key GET "${_out}" backends ${_i} signature trusted_key_path)
    file(REAL_PATH "${_key}" _key_real)
    string(FIND "${_key_real}" "${_copy_real}/" _at)
    if(NOT _status STREQUAL "verified" OR NOT _at EQUAL 0)
      message(FATAL_ERROR "backend ${_id}'s signature is '${_status}' (trusted key '${_key}'), not "
                          "verified with a key of the copy ${_copy}")
    endif()
    if(_id STREQUAL "CpuRef")
      set(_found ON)
    endif()
  endforeach()
endif()
if(NOT _found)
  message(FATAL_ERROR "CpuRef is not registered from the copy:\n${_out}")
endif()

# Plugin isolation finds the copy's own probe program (libexec, relative to libbackplane) and
# the probe finds the copy's libbackplane: with --isolate every backend still registers.
set(ENV{BACKPLANE_PLUGIN_VERDICT_STORE} "${WORK}/verdicts")
execute_process(COMMAND "${_copy}/bin/sdk-info" --json --no-static --isolate
                RESULT_VARIABLE _exit OUTPUT_VARIABLE _isolated ERROR_VARIABLE _err)
if(NOT _exit EQUAL 0)
  message(FATAL_ERROR "the copy's sdk-info --isolate exited ${_exit}\n${_isolated}\n${_err}")
endif()
string(JSON _isolated_count LENGTH "${_isolated}" backends)
if(NOT _isolated_count EQUAL _count)
  message(FATAL_ERROR "sdk-info --isolate registered ${_isolated_count} backend(s), without it ${_count}:\n${_isolated}")
endif()
file(REMOVE_RECURSE "${WORK}")
message(STATUS "the copy at ${_copy} loaded ${_count} backend(s) from its own folder, with and without --isolate")
