# The build key: the SDK's own build signs its bundled backends with a key it makes itself, so
# an installation trusts its own plugins under policy require (docs/installing.md, "Trusted
# keys"). Included by packaging/CMakeLists.txt, after tools/, so sdk-plugin is known.
#
#   BACKPLANE_BUILD_SIGNING_KEY   <build>/signing/backplane-build.key: the private key (PEM,
#                                 mode 0600), made by `sdk-plugin keygen` once per build tree
#                                 (again only when it or its .pub.json is deleted); never installed
#   <build>/signing/backplane-build.pub.json, copied to
#   BACKPLANE_TRUSTED_KEYS_OUTPUT_DIR/backplane-build.json
#                                 the trusted-key file: the build tree's runtime finds it beside
#                                 its backend folder, and it installs into
#                                 BACKPLANE_TRUSTED_KEYS_INSTALL_DIR (component runtime)
#
# Target backplane_build_key makes both. backplane_add_backend() adds the signing step to every
# plugin of this build (global property BACKPLANE_SIGNED_BACKEND_TARGETS); it runs sdk-plugin
# only when backplane_build_key exists. Here each such plugin gets its dependencies on the key
# and on sdk-plugin, and a new key relinks (so re-signs) it. Without sdk-plugin
# (BACKPLANE_BUILD_TOOLS OFF, as in the fuzz build) there is no key and the plugins stay unsigned.
include_guard(GLOBAL)

function(_backplane_build_key)
  get_property(_targets GLOBAL PROPERTY BACKPLANE_SIGNED_BACKEND_TARGETS)
  if(NOT _targets)
    return()  # no plugins (BACKPLANE_BACKENDS_AS_PLUGINS OFF)
  endif()
  if(NOT TARGET sdk-plugin)
    if(BACKPLANE_BUILD_TOOLS)
      set(_why "this build has no sdk-plugin target")
    else()
      set(_why "sdk-plugin is not built (BACKPLANE_BUILD_TOOLS is OFF)")
    endif()
    message(STATUS "Backplane: the bundled backends are not signed: ${_why}")
    return()
  endif()

  set(_key "${BACKPLANE_BUILD_SIGNING_KEY}")
  string(REGEX REPLACE "\\.key$" "" _prefix "${_key}")
  set(_public "${_prefix}.pub.json")
  set(_trusted "${BACKPLANE_TRUSTED_KEYS_OUTPUT_DIR}/backplane-build.json")
  get_filename_component(_key_dir "${_key}" DIRECTORY)
  # sdk-plugin as the COMMAND: built first, but a rebuilt sdk-plugin does not make a new key.
  # keygen refuses to overwrite, so a half-deleted pair is removed first.
  add_custom_command(OUTPUT "${_key}" "${_public}"
    COMMAND "${CMAKE_COMMAND}" -E make_directory "${_key_dir}"
    COMMAND "${CMAKE_COMMAND}" -E rm -f "${_key}" "${_public}"
    COMMAND sdk-plugin keygen --publisher "${BACKPLANE_BUILD_SIGNING_PUBLISHER}" --out "${_prefix}"
    COMMENT "Making the build key ${_key}"
    VERBATIM)
  add_custom_command(OUTPUT "${_trusted}"
    COMMAND "${CMAKE_COMMAND}" -E make_directory "${BACKPLANE_TRUSTED_KEYS_OUTPUT_DIR}"
    COMMAND "${CMAKE_COMMAND}" -E copy "${_public}" "${_trusted}"
    DEPENDS "${_public}"
    COMMENT "Trusting the build key: ${_trusted}"
    VERBATIM)
  add_custom_target(backplane_build_key ALL DEPENDS "${_key}" "${_trusted}")

  foreach(_target IN LISTS _targets)
    add_dependencies(${_target} backplane_build_key sdk-plugin)
    set_property(TARGET ${_target} APPEND PROPERTY LINK_DEPENDS "${_key}")
  endforeach()

  if(BACKPLANE_TOP_LEVEL)
    install(FILES "${_trusted}" DESTINATION "${BACKPLANE_TRUSTED_KEYS_INSTALL_DIR}" COMPONENT runtime)
  endif()
endfunction()

_backplane_build_key()
