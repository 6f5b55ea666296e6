# CPack post-build script (CPACK_POST_BUILD_SCRIPTS, BackplanePackages.cmake): gives each DEB
# package that holds shared libraries in the library path an `activate-noawait ldconfig`
# trigger instead of the postinst/postrm that call ldconfig, as Debian asks (lintian:
# lacks-ldconfig-trigger, maintscript-calls-ldconfig). CPack 3.25 always writes those two
# scripts for such a package and has no setting to leave them out, so the built package is
# unpacked (dpkg-deb -R), the scripts it wrote are replaced by the trigger, and the package is
# built again (dpkg-deb --root-owner-group -b: files root-owned, as CPack made them). A
# postinst or postrm that does anything besides calling ldconfig is left alone, and the package
# with it. Fails naming the package when dpkg-deb fails.
if(NOT CPACK_GENERATOR STREQUAL "DEB")
  return()
endif()
find_program(_dpkg_deb dpkg-deb REQUIRED)
foreach(_deb IN LISTS CPACK_PACKAGE_FILES)
  if(NOT _deb MATCHES "\\.deb$")
    continue()
  endif()
  set(_root "${CPACK_TOPLEVEL_DIRECTORY}/ldconfig-trigger")
  file(REMOVE_RECURSE "${_root}")
  execute_process(COMMAND "${_dpkg_deb}" -R "${_deb}" "${_root}"
    RESULT_VARIABLE _result ERROR_VARIABLE _error)
  if(NOT _result EQUAL 0)
    message(FATAL_ERROR "debian_ldconfig_trigger.cmake: dpkg-deb -R ${_deb}: ${_error}")
  endif()
  set(_only_ldconfig TRUE)
  set(_scripts "")
  foreach(_script IN ITEMS postinst postrm)
    if(EXISTS "${_root}/DEBIAN/${_script}")
      file(READ "${_root}/DEBIAN/${_script}" _text)
      # CPack's script: a shebang, set -e, and ldconfig under an if on $1.
      string(REGEX REPLACE "#![^\n]*\n|set -e|if \\[ \"\\$1\" = \"[a-z]+\" \\]; then|ldconfig|fi|[ \t\n]" "" _rest "${_text}")
      if(NOT _text MATCHES "ldconfig" OR NOT _rest STREQUAL "")
        set(_only_ldconfig FALSE)
      endif()
      list(APPEND _scripts "${_script}")
    endif()
  endforeach()
  if(_scripts AND _only_ldconfig)
    foreach(_script IN LISTS _scripts)
      file(REMOVE "${_root}/DEBIAN/${_script}")
    endforeach()
    file(WRITE "${_root}/DEBIAN/triggers" "activate-noawait ldconfig\n")
    execute_process(COMMAND "${_dpkg_deb}" --root-owner-group -Zgzip -b "${_root}" "${_deb}"
      RESULT_VARIABLE _result OUTPUT_QUIET ERROR_VARIABLE _error)
    if(NOT _result EQUAL 0)
      message(FATAL_ERROR "debian_ldconfig_trigger.cmake: dpkg-deb -b ${_deb}: ${_error}")
    endif()
  endif()
  file(REMOVE_RECURSE "${_root}")
endforeach()
