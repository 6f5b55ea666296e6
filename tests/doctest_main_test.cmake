# One check of tests/doctest_main.cpp's rules (cmake -P, registered in tests/CMakeLists.txt): runs
# the probe program (doctest_main_test.cpp) through its emulator, if any, with ARGUMENTS and
# fails unless it exits with status 0 exactly when EXPECT_SUCCESS is true and its output matches
# every regex of OUTPUT_MATCHES.
#   cmake -D "EMULATOR=<list>" -D PROGRAM=<probe> -D "ARGUMENTS=<list>" -D EXPECT_SUCCESS=<bool>
#         -D "OUTPUT_MATCHES=<regex list>" -P doctest_main_test.cmake
cmake_minimum_required(VERSION 3.25)  # the policies of the project (if() on quoted words)
execute_process(COMMAND ${EMULATOR} "${PROGRAM}" ${ARGUMENTS}
                OUTPUT_VARIABLE output ERROR_VARIABLE output RESULT_VARIABLE status)
string(REPLACE "\r" "" output "${output}")
if(EXPECT_SUCCESS AND NOT status EQUAL 0)
  message(FATAL_ERROR "expected status 0, got ${status}; output:\n${output}")
elseif(NOT EXPECT_SUCCESS AND status EQUAL 0)
  message(FATAL_ERROR "expected a failure, got status 0; output:\n${output}")
endif()
foreach(regex IN LISTS OUTPUT_MATCHES)
  if(NOT output MATCHES "${regex}")
    message(FATAL_ERROR "output does not match \"${regex}\":\n${output}")
  endif()
endforeach()
