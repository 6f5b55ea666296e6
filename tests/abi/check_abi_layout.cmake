# cmake -P check_abi_layout.cmake: abidw over both layout probes, then check_abi_layout.py.
# Variables: ABIDW PYTHON BASELINE_LIBRARY CURRENT_LIBRARY BASELINE_HEADER CURRENT_HEADER CHECKER WORK_DIR
file(MAKE_DIRECTORY "${WORK_DIR}")
foreach(_side BASELINE CURRENT)
  execute_process(COMMAND "${ABIDW}" --load-all-types --no-corpus-path
                          --out-file "${WORK_DIR}/${_side}.abi" "${${_side}_LIBRARY}"
                  RESULT_VARIABLE _result)
  if(NOT _result EQUAL 0)
    message(FATAL_ERROR "abidw failed (${_result}) on ${${_side}_LIBRARY}")
  endif()
endforeach()
execute_process(COMMAND "${PYTHON}" "${CHECKER}" "${WORK_DIR}/BASELINE.abi" "${WORK_DIR}/CURRENT.abi"
                        "${BASELINE_HEADER}" "${CURRENT_HEADER}"
                RESULT_VARIABLE _result)
if(NOT _result EQUAL 0)
  message(FATAL_ERROR "the plugin boundary changed incompatibly (see above)")
endif()
