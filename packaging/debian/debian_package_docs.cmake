# CPack pre-build script (CPACK_PRE_BUILD_SCRIPTS, BackplanePackages.cmake): for the DEB
# generator, adds what Debian asks of every binary package to each component's staging folder
# before it is packed:
#   usr/share/doc/<package>/copyright              packaging/debian/copyright (DEP-5)
#   usr/share/doc/<package>/changelog.Debian.gz    the configured changelog, gzip -9n
#   usr/share/lintian/overrides/<package>          packaging/debian/all.lintian-overrides, then
#                                                  <package>.lintian-overrides when that exists
# Other generators are left alone (the archives and installers carry LICENSE and NOTICE in
# share/doc/backplane). Fails naming the file it could not write.
if(NOT CPACK_GENERATOR STREQUAL "DEB")
  return()
endif()
find_program(_gzip gzip REQUIRED)
foreach(_component IN LISTS CPACK_COMPONENTS_ALL)
  set(_stage "${CPACK_TEMPORARY_DIRECTORY}/${_component}")
  if(NOT IS_DIRECTORY "${_stage}")
    continue()  # a component with no files makes no package
  endif()
  string(TOUPPER "${_component}" _upper)
  set(_package "${CPACK_DEBIAN_${_upper}_PACKAGE_NAME}")
  if(NOT _package)
    message(FATAL_ERROR "debian_package_docs.cmake: component ${_component} has no package name")
  endif()
  set(_prefix "${_stage}${CPACK_PACKAGING_INSTALL_PREFIX}")
  set(_doc "${_prefix}/share/doc/${_package}")
  file(MAKE_DIRECTORY "${_doc}")
  configure_file("${CPACK_BACKPLANE_DEB_DOCS_FOLDER}/copyright" "${_doc}/copyright" COPYONLY)
  execute_process(COMMAND "${_gzip}" -9nc "${CPACK_BACKPLANE_DEB_CHANGELOG}"
    OUTPUT_FILE "${_doc}/changelog.Debian.gz" RESULT_VARIABLE _result)
  if(NOT _result EQUAL 0)
    message(FATAL_ERROR "debian_package_docs.cmake: cannot write ${_doc}/changelog.Debian.gz")
  endif()
  file(READ "${CPACK_BACKPLANE_DEB_DOCS_FOLDER}/all.lintian-overrides" _overrides)
  set(_own "${CPACK_BACKPLANE_DEB_DOCS_FOLDER}/${_package}.lintian-overrides")
  if(EXISTS "${_own}")
    file(READ "${_own}" _own_overrides)
    string(APPEND _overrides "\n${_own_overrides}")
  endif()
  file(WRITE "${_prefix}/share/lintian/overrides/${_package}" "${_overrides}")
endforeach()
