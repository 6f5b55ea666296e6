# cmake -DPROGRAM=<environment_report> -DSCRATCH=<folder> -P setuid_test.cmake
# Runs PROGRAM with BACKPLANE_TRUST_POLICY, BACKPLANE_BACKEND_PATHS and XDG_CONFIG_HOME set: as
# it is (they must be used, or the check could not fail), then as a set-uid copy owned by nobody
# (they must be ignored). Exits 77 (skipped) when not root or when the file system ignores the
# set-uid bit.
execute_process(COMMAND id -u OUTPUT_VARIABLE _uid OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT _uid STREQUAL "0")
  message("skipped: making a set-uid program needs root (chown)")
  cmake_language(EXIT 77)
endif()

file(REMOVE_RECURSE "${SCRATCH}")
file(MAKE_DIRECTORY "${SCRATCH}")
set(_copy "${SCRATCH}/environment_report")
file(COPY_FILE "${PROGRAM}" "${_copy}")
set(_env BACKPLANE_TRUST_POLICY=off BACKPLANE_BACKEND_PATHS=${SCRATCH} XDG_CONFIG_HOME=${SCRATCH}/config)

function(run_report out)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${_env} "${_copy}"
                  RESULT_VARIABLE _result OUTPUT_VARIABLE _output ERROR_VARIABLE _error)
  if(NOT _result EQUAL 0)
    message(FATAL_ERROR "${_copy} failed (${_result}):\n${_output}\n${_error}")
  endif()
  set(${out} "${_output}" PARENT_SCOPE)
endfunction()

function(expect output pattern present)
  string(FIND "${output}" "${pattern}" _at)
  if(present AND _at EQUAL -1)
    message(FATAL_ERROR "expected '${pattern}' in:\n${output}")
  elseif(NOT present AND NOT _at EQUAL -1)
    message(FATAL_ERROR "did not expect '${pattern}' in:\n${output}")
  endif()
endfunction()

run_report(_plain)
expect("${_plain}" "set-uid=0" TRUE)
expect("${_plain}" "trust policy=off source=environment (BACKPLANE_TRUST_POLICY)" TRUE)
expect("${_plain}" "key folder user=${SCRATCH}/config/backplane/trusted-keys" TRUE)
expect("${_plain}" "layer environment=${SCRATCH}" TRUE)

execute_process(COMMAND chown nobody "${_copy}" RESULT_VARIABLE _chown)
execute_process(COMMAND chmod 4755 "${_copy}" RESULT_VARIABLE _chmod)
if(NOT _chown EQUAL 0 OR NOT _chmod EQUAL 0)
  message(FATAL_ERROR "could not make ${_copy} set-uid nobody (chown ${_chown}, chmod ${_chmod})")
endif()
run_report(_setuid)
if(_setuid MATCHES "set-uid=0")
  message("skipped: the set-uid bit has no effect here (a nosuid mount?):\n${_setuid}")
  cmake_language(EXIT 77)
endif()
expect("${_setuid}" "trust policy=warn source=default" TRUE)
expect("${_setuid}" "key folder user=" FALSE)
expect("${_setuid}" "layer environment=" FALSE)
expect("${_setuid}" "${SCRATCH}/config" FALSE)
file(REMOVE_RECURSE "${SCRATCH}")
