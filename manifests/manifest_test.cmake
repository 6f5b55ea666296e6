# backplane_add_manifest_test(<plugin target> <backend id> <test name prefix>)
#
# Adds the ctest that checks the manifest the build wrote beside a bundled plugin: valid against
# the published schema (backend-manifest.schema.json), naming <backend id> and the project
# version, with a sha256 equal to the library's (check_manifest.py). The checker runs on the first
# python3 that has jsonschema (the one on PATH, else Debian's /usr/bin/python3 with
# python3-jsonschema); without one the test is left out with a status message. Nothing is added
# when the backends are not built as plugins.
function(backplane_add_manifest_test target id prefix)
  if(NOT BACKPLANE_BACKENDS_AS_PLUGINS)
    return()
  endif()
  get_property(_python GLOBAL PROPERTY BACKPLANE_MANIFEST_CHECKER_PYTHON)
  get_property(_searched GLOBAL PROPERTY BACKPLANE_MANIFEST_CHECKER_SEARCHED)
  if(NOT _searched)
    find_package(Python3 COMPONENTS Interpreter)
    foreach(_candidate IN ITEMS "${Python3_EXECUTABLE}" /usr/bin/python3)
      if(_candidate AND NOT _python AND EXISTS "${_candidate}")
        execute_process(COMMAND "${_candidate}" -c "import jsonschema"
                        RESULT_VARIABLE _jsonschema_missing OUTPUT_QUIET ERROR_QUIET)
        if(NOT _jsonschema_missing)
          set(_python "${_candidate}")
        endif()
      endif()
    endforeach()
    set_property(GLOBAL PROPERTY BACKPLANE_MANIFEST_CHECKER_PYTHON "${_python}")
    set_property(GLOBAL PROPERTY BACKPLANE_MANIFEST_CHECKER_SEARCHED TRUE)
  endif()
  if(NOT _python)
    message(STATUS "${id} manifest test skipped: python3 with jsonschema not found "
                   "(scripts/install-deps.sh installs python3-jsonschema)")
    return()
  endif()
  add_test(NAME "${prefix}: build-tree manifest matches the schema and the library"
    COMMAND "${_python}" "${PROJECT_SOURCE_DIR}/manifests/check_manifest.py"
            --schema "${PROJECT_SOURCE_DIR}/manifests/backend-manifest.schema.json"
            --expect-id ${id} --expect-version ${PROJECT_VERSION} --require-sha256
            "$<TARGET_FILE_DIR:${target}>/$<TARGET_FILE_BASE_NAME:${target}>.json")
endfunction()
