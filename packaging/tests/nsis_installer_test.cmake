# The Windows installer under Wine, in a fresh Wine prefix: makes it with cpack -G NSIS, installs
# it silently (/S), runs the installed sdk-info.exe --json (the bundled backends are listed) and
# sdk-run.exe on a model with nothing but the installed tree (no toolchain folder on the search
# path: the installer ships the runtime DLLs), checks find_package's registry entry, then
# uninstalls it silently and checks that the install folder and the entry are gone.
#   cmake -DBUILD_DIR=<cross build> -DWORK=<scratch> -DWINE=<wine> -DMODEL=<.onnx> -DINPUT=<name=.npy>
#         -DBACKENDS=<ids> -P nsis_installer_test.cmake
cmake_minimum_required(VERSION 3.25)
foreach(_var BUILD_DIR WORK WINE MODEL INPUT BACKENDS)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "nsis_installer_test: -D${_var}=... is required")
  endif()
endforeach()

string(REPLACE "," ";" BACKENDS "${BACKENDS}")
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(ENV{WINEPREFIX} "${WORK}/wine-prefix")
set(ENV{WINEDEBUG} "-all")
set(ENV{WINEDLLOVERRIDES} "mscoree,mshtml=")
unset(ENV{WINEPATH})

# run(<what> <command>...): runs it, fails the test with its output unless it exits 0; the
# output is left in _output. (A function: a macro would re-read C:\... as escapes.)
function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE _result OUTPUT_VARIABLE _output ERROR_VARIABLE _error)
  if(NOT _result EQUAL 0)
    message(FATAL_ERROR "nsis_installer_test: ${what} failed (${_result}):\n${_output}\n${_error}")
  endif()
  set(_output "${_output}" PARENT_SCOPE)
endfunction()

run("cpack -G NSIS" "${CMAKE_CPACK_COMMAND}" -G NSIS --config "${BUILD_DIR}/CPackConfig.cmake" -B "${WORK}/out")
file(GLOB _installer "${WORK}/out/*-win64.exe")
if(NOT _installer)
  message(FATAL_ERROR "nsis_installer_test: cpack made no *-win64.exe in ${WORK}/out")
endif()

run("making the Wine prefix" "${WINE}" wineboot --init)
set(_folder "${WORK}/wine-prefix/drive_c/Backplane")
# /D= must come last, unquoted (NSIS's rule).
run("the silent install" "${WINE}" "${_installer}" /S "/D=C:\\Backplane")
execute_process(COMMAND wineserver -w)
foreach(_file bin/libbackplane.dll bin/libstdc++-6.dll bin/sdk-info.exe bin/sdk-run.exe Uninstall.exe)
  if(NOT EXISTS "${_folder}/${_file}")
    message(FATAL_ERROR "nsis_installer_test: the install has no ${_file} in ${_folder}")
  endif()
endforeach()

# registry_entry(<var>): the Backplane key of CMake's package registry, as reg.exe prints it, for
# all users (HKLM) or this one (HKCU), whichever the installer wrote; empty when neither has it.
set(_registry_key "Software\\Kitware\\CMake\\Packages\\Backplane")
function(registry_entry var)
  set(${var} "" PARENT_SCOPE)
  foreach(_root HKLM HKCU)
    execute_process(COMMAND "${WINE}" reg query "${_root}\\${_registry_key}"
                    RESULT_VARIABLE _result OUTPUT_VARIABLE _output ERROR_QUIET)
    if(_result EQUAL 0)
      set(${var} "${_output}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
endfunction()
registry_entry(_entry)
string(FIND "${_entry}" "C:\\Backplane\\lib\\cmake\\Backplane" _at)
if(_at LESS 0)
  message(FATAL_ERROR "nsis_installer_test: CMake's package registry has no entry for C:\\Backplane\\lib\\cmake\\Backplane "
                      "(reg query: '${_entry}')")
endif()
if(NOT EXISTS "${_folder}/lib/cmake/Backplane/BackplaneConfig.cmake")
  message(FATAL_ERROR "nsis_installer_test: the registry names lib/cmake/Backplane, which has no BackplaneConfig.cmake")
endif()

run("sdk-info.exe --json" "${WINE}" "${_folder}/bin/sdk-info.exe" --json)
string(JSON _count LENGTH "${_output}" backends)
set(_ids "")
math(EXPR _last "${_count} - 1")
foreach(_i RANGE ${_last})
  string(JSON _id GET "${_output}" backends ${_i} id)
  list(APPEND _ids "${_id}")
endforeach()
foreach(_id IN LISTS BACKENDS)
  if(NOT _id IN_LIST _ids)
    message(FATAL_ERROR "nsis_installer_test: the installed sdk-info lists ${_ids}, not ${_id}")
  endif()
endforeach()

run("sdk-run.exe" "${WINE}" "${_folder}/bin/sdk-run.exe" --model "Z:${MODEL}" --input "${INPUT}" --iterations 5)

run("the silent uninstall" "${WINE}" "${_folder}/Uninstall.exe" /S)
execute_process(COMMAND wineserver -w)
# The uninstaller copies itself to a temporary folder and removes the tree from there.
foreach(_try RANGE 20)
  if(NOT EXISTS "${_folder}")
    break()
  endif()
  execute_process(COMMAND "${CMAKE_COMMAND}" -E sleep 0.5)
endforeach()
if(EXISTS "${_folder}")
  file(GLOB_RECURSE _left RELATIVE "${_folder}" "${_folder}/*")
  message(FATAL_ERROR "nsis_installer_test: the uninstaller left ${_folder} with: ${_left}")
endif()
registry_entry(_entry)
if(NOT _entry STREQUAL "")
  message(FATAL_ERROR "nsis_installer_test: the uninstaller left CMake's package registry entry: ${_entry}")
endif()
execute_process(COMMAND wineserver -k)
message(STATUS "nsis_installer_test: installed, ran ${_ids} and cnn.onnx, uninstalled")
