# The check of doctest_batches.cmake (cmake -P, registered in tests/CMakeLists.txt): batches the
# probe program's cases (doctest_main_test.cpp) with a small batch size and reads the ctest file
# it writes: every listed case in exactly one batch, named as doctest reads it, the threaded
# cases apart with their label, the per-case timeout passed on and summed for the batch, the
# case its decorator skips left out.
#   cmake -D "EMULATOR=<list>" -D PROGRAM=<probe> -D WORK=<folder> -P doctest_batches_test.cmake
cmake_minimum_required(VERSION 3.25)  # the policies of the project (if() on quoted words)
file(MAKE_DIRECTORY "${WORK}")
set(ctest_file "${WORK}/probe_batches.cmake")
file(REMOVE "${ctest_file}")
file(WRITE "${WORK}/probe_settings.cmake"
  "set(emulator [==[${EMULATOR}]==])\n"
  "set(executable_name probe)\n"
  "set(working_directory [==[${WORK}]==])\n"
  "set(prefix [==[probe: ]==])\n"
  "set(labels suite)\n"
  "set(threaded_labels [==[suite;threads]==])\n"
  "set(timeout 7)\n"
  "set(threaded TRUE)\n"
  "set(threaded_cases [==[probe: .*sleeps]==])\n"
  "set(batch_characters 70)\n"
  "set(ctest_file [==[${ctest_file}]==])\n")
execute_process(COMMAND "${CMAKE_COMMAND}" -D "SETTINGS=${WORK}/probe_settings.cmake" -D "EXECUTABLE=${PROGRAM}"
                        -P "${CMAKE_CURRENT_LIST_DIR}/doctest_batches.cmake"
                RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(NOT status EQUAL 0 OR NOT EXISTS "${ctest_file}")
  message(FATAL_ERROR "doctest_batches.cmake failed (${status}):\n${output}")
endif()
file(READ "${ctest_file}" script)

function(expect regex what)
  set(times 1)
  if(ARGC GREATER 2)
    set(times ${ARGV2})
  endif()
  string(REGEX MATCHALL "${regex}" found "${script}")
  list(LENGTH found count)
  if(NOT count EQUAL times)
    message(FATAL_ERROR "${what}: \"${regex}\" found ${count} times, not ${times}, in:\n${script}")
  endif()
endfunction()
# At most 70 characters of names a batch (a longer name alone): four batches.
expect("--test-case=doctest_main probe: passes\\]" "the passing case, alone")
expect("--test-case=doctest_main probe: a name with a\\\\, comma\\\\, a \\\\\\\\ backslash and a \\? passes\\]"
       "commas and backslashes escaped for doctest")
expect("--test-case=doctest_main probe: fails,doctest_main probe: exits with status 0\\]"
       "two short names in one batch")
expect("probe: probe 4 of 4 \\(1 case\\)\\]==\\][^\n]*--test-case=doctest_main probe: sleeps 30 s\\]==\\] --backplane-case-timeout=7\\)"
       "the threaded case, batched last with the per-case timeout")
expect("set_tests_properties\\(\\[==\\[probe: probe 4 of 4 \\(1 case\\)\\]==\\] PROPERTIES [^\n]* LABELS \\[==\\[suite;threads\\]==\\] TIMEOUT 7\\)"
       "the threaded batch's labels and timeout")
expect("LABELS \\[==\\[suite\\]==\\] TIMEOUT 7\\)" "one case's timeout" 2)
expect("LABELS \\[==\\[suite\\]==\\] TIMEOUT 14\\)" "the two cases' timeouts summed")
expect("add_test\\(" "four batches" 4)
expect("skipped" "the case its decorator skips" 0)
