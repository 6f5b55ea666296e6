# backplane_add_backend(): builds a Backplane backend as a plugin with its manifest, and/or links
# it into the runtime. Used by the bundled backends (plugins/*) and, after
# find_package(Backplane), by out-of-tree backend authors.
#
#   backplane_add_backend(<target>
#     ID <Name> VENDOR <Vendor> VERSION <semver>
#     SOURCES <file>...
#     CAPABILITIES <json file holding the capabilities object of the manifest>
#     [DESCRIPTION <one line>]
#     [LINK_LIBRARIES <library>...]
#     [DEB_DEPENDS <Debian package relation>...]
#     [SIGN_KEY <PEM private key file>]
#     [NO_SHA256])
#
# As a plugin (BACKPLANE_BACKENDS_AS_PLUGINS ON, or always outside the Backplane build):
#   <target> is a MODULE library <Vendor>_<Name>_backend.so / .dll / .dylib (no "lib" prefix),
#   built with hidden visibility and exporting only the four entry points of plugin.hpp, into
#   BACKPLANE_BACKEND_OUTPUT_DIR; <Vendor>_<Name>_backend.json is written beside it after every
#   link (with the library's sha256 unless NO_SHA256). It links the backend author kit
#   (backplane_plugin_kit below: the SDK's sources compiled by this project's toolchain), not
#   libbackplane_sdk, so it imports nothing from the SDK's shared libraries and loads into a
#   runtime built by another compiler or standard library. Both are installed (component
#   backend_<name in lower case>) into <CMAKE_INSTALL_PREFIX>/<dir>, <dir> being
#   BACKPLANE_BACKEND_INSTALL_DIR when that variable is defined (the SDK's own build sets it; an
#   author may set it for another layout), else Backplane_BACKEND_INSTALL_DIR from the installed
#   BackplaneConfig.cmake: the SDK's own backend folder relative to its prefix (e.g.
#   lib/x86_64-linux-gnu/backplane/backends), not the author's GNUInstallDirs libdir, so a package
#   built for the SDK's prefix puts the plugin where the SDK's runtime searches. The installed
#   manifest is rewritten against the installed file, so its sha256 holds after install
#   rewrote the RPATH or stripped the library. Outside the Backplane build the plugin is built
#   into <build>/lib/backplane/backends.
#   SIGN_KEY signs the manifest: after every link, once the manifest is written, and again at
#   install time against the rewritten installed manifest, `sdk-plugin sign <manifest> --key
#   <file>` writes <Vendor>_<Name>_backend.json.sig beside it (installed with the manifest, same
#   component). The key is an Ed25519 private key from `sdk-plugin keygen` (or `openssl genpkey
#   -algorithm ed25519`); a relative path is taken from the current source folder, and a file
#   that does not exist stops configuration. sdk-plugin is the installed SDK's own: the package
#   config defines the imported executable Backplane::sdk-plugin from <prefix>/<bindir>/sdk-plugin
#   when that file exists (it is in the SDK's tools component), and SIGN_KEY without it is a
#   configuration error. SIGN_KEY needs the sha256 (not with NO_SHA256). Without SIGN_KEY nothing
#   is signed.
#   Inside the SDK's own build every plugin is signed this way with the build key
#   (BACKPLANE_BUILD_SIGNING_KEY, made once per build tree; packaging/cmake/BackplaneBuildKey.cmake)
#   whenever the build has the sdk-plugin target, and left unsigned (one configure message) when
#   it does not (BACKPLANE_BUILD_TOOLS OFF).
#   DEB_DEPENDS lists the Debian packages the plugin needs at run time beyond the SDK's runtime
#   (e.g. "libdnnl2" or "libfoo1 (>= 1.2)"); backplane_set_backend_package_variables() below
#   turns them into the Depends field of the backend's own DEB package (with what
#   dpkg-shlibdeps finds the plugin loads, when the packaging project turns SHLIBDEPS on).
#   Release builds strip the plugin after every link and keep its symbols in <library>.debug
#   (backplane_split_debug_symbols() below; BACKPLANE_DEBUG_SYMBOLS_TREE files them by build id
#   for a debug package).
# Linked into the runtime (BACKPLANE_BACKENDS_STATIC ON, only inside the Backplane build):
#   <target>_static is an OBJECT library of the same sources compiled with
#   BACKPLANE_STATIC_BACKEND, whose objects and LINK_LIBRARIES are added to backplane_runtime;
#   the BACKPLANE_BACKEND_PLUGIN line then registers the backend in the static list instead.
#
# Every target gets the compile definitions BACKPLANE_BACKEND_ID (the bare id token),
# BACKPLANE_BACKEND_VENDOR and BACKPLANE_BACKEND_VERSION (string literals), so the plugin's
#   BACKPLANE_BACKEND_PLUGIN(BACKPLANE_BACKEND_ID, BACKPLANE_BACKEND_VENDOR,
#                            BACKPLANE_BACKEND_VERSION, my::Backend)
# cannot disagree with its manifest.
#
# The manifest's platform, abi and api_version come from compiling and running abi_probe.cpp
# once per build tree with the same compiler and flags (cache variables BACKPLANE_PLATFORM_TAG,
# BACKPLANE_ABI_TAG, BACKPLANE_BACKEND_API_VERSION; set all three when cross-compiling).
#
# Configuration errors (a missing argument, a malformed id, a duplicate id, a SIGN_KEY file that
# does not exist, SIGN_KEY with NO_SHA256 or without sdk-plugin) stop configuration with a
# message naming the target.
include_guard(GLOBAL)
include(GNUInstallDirs)

# The manifest tools (write_manifest.cmake, split_debug_symbols.cmake, sign_manifest.cmake,
# backend-manifest.json.in, abi_probe.cpp) lie beside this file once installed
# (lib/cmake/Backplane/), in manifests/ of the source tree otherwise.
if(EXISTS "${CMAKE_CURRENT_LIST_DIR}/write_manifest.cmake")
  set_property(GLOBAL PROPERTY BACKPLANE_MANIFEST_TOOLS_DIR "${CMAKE_CURRENT_LIST_DIR}")
else()
  get_filename_component(_backplane_tools_dir "${CMAKE_CURRENT_LIST_DIR}/../../manifests" ABSOLUTE)
  set_property(GLOBAL PROPERTY BACKPLANE_MANIFEST_TOOLS_DIR "${_backplane_tools_dir}")
  unset(_backplane_tools_dir)
endif()

# The source that expands BACKPLANE_BACKEND_PLUGIN instantiates the C boundary's adapter
# (backplane/backend/c_adapter.hpp): glue that runs once per call across the boundary, never per
# tensor element. Optimized builds (Release) compile that one source for size: discovery hashes
# (sha256) and maps every byte of every plugin at each Runtime::Create, so the adapter's size is
# start-up time (about 20 KB less per plugin than -O3). The backend author kit
# (_backplane_plugin_kit() below: attribute conversion, op schema, shapes, statuses, once per layer
# or call, never per element) is compiled the same way. Read at configure time.
set_property(GLOBAL PROPERTY BACKPLANE_GLUE_COMPILE_OPTIONS
  "$<$<AND:$<CONFIG:Release>,$<COMPILE_LANG_AND_ID:CXX,GNU,Clang,AppleClang>>:-Os>")
function(_backplane_compile_entry_for_size target)
  get_property(_options GLOBAL PROPERTY BACKPLANE_GLUE_COMPILE_OPTIONS)
  foreach(_source IN LISTS ARGN)
    get_filename_component(_path "${_source}" ABSOLUTE)
    if(NOT EXISTS "${_path}")
      continue()
    endif()
    file(STRINGS "${_path}" _entry REGEX "BACKPLANE_BACKEND_PLUGIN\\(" LIMIT_COUNT 1)
    if(_entry)
      set_property(SOURCE "${_source}" APPEND PROPERTY COMPILE_OPTIONS "${_options}")
    endif()
  endforeach()
endfunction()

# Fills the cache variables BACKPLANE_PLATFORM_TAG, BACKPLANE_ABI_TAG and
# BACKPLANE_BACKEND_API_VERSION, leaving values the user set alone. Runs the probe again only
# when the SDK headers it reads (version.hpp, plugin.hpp, backend_c_api.h, which holds the
# Backend API version) change, so a Backend API bump reaches the manifests of an existing build
# tree.
function(_backplane_detect_manifest_tags)
  set(_names PLATFORM_TAG ABI_TAG BACKEND_API_VERSION)
  if(BACKPLANE_PLATFORM_TAG AND BACKPLANE_ABI_TAG AND BACKPLANE_BACKEND_API_VERSION
     AND NOT DEFINED _BACKPLANE_PROBE_KEY)
    return()  # all three given by the user
  endif()
  if(CMAKE_CROSSCOMPILING AND NOT CMAKE_CROSSCOMPILING_EMULATOR)
    message(FATAL_ERROR
      "Backplane: cross-compiling, so abi_probe.cpp cannot run here. Set BACKPLANE_PLATFORM_TAG "
      "(e.g. linux-aarch64), BACKPLANE_ABI_TAG (c) and BACKPLANE_BACKEND_API_VERSION (e.g. 2.0) "
      "to what plugin.hpp gives on the target.")
  endif()

  # The SDK's header folder: the build-tree one inside the Backplane build, the installed one
  # for an imported Backplane::sdk.
  get_target_property(_entries Backplane::sdk INTERFACE_INCLUDE_DIRECTORIES)
  set(_includes "")
  foreach(_entry IN LISTS _entries)
    if(_entry MATCHES "^\\$<BUILD_INTERFACE:(.+)>$")
      list(APPEND _includes "${CMAKE_MATCH_1}")
    elseif(NOT _entry MATCHES "^\\$<" AND IS_ABSOLUTE "${_entry}")
      list(APPEND _includes "${_entry}")
    endif()
  endforeach()
  if(NOT _includes)
    message(FATAL_ERROR "Backplane: Backplane::sdk names no include folder ('${_entries}')")
  endif()

  set(_key "")
  foreach(_include IN LISTS _includes)
    foreach(_header IN ITEMS version.hpp plugin.hpp backend_c_api.h)
      if(EXISTS "${_include}/backplane/${_header}")
        set_property(DIRECTORY "${CMAKE_SOURCE_DIR}" APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
                     "${_include}/backplane/${_header}")
        file(MD5 "${_include}/backplane/${_header}" _hash)
        string(APPEND _key "${_hash}")
      endif()
    endforeach()
  endforeach()
  if(_key STREQUAL "${_BACKPLANE_PROBE_KEY}")
    return()
  endif()

  get_property(_tools GLOBAL PROPERTY BACKPLANE_MANIFEST_TOOLS_DIR)
  try_run(_run_result _compile_result
    "${CMAKE_BINARY_DIR}/CMakeFiles/backplane_abi_probe"
    "${_tools}/abi_probe.cpp"
    CMAKE_FLAGS "-DINCLUDE_DIRECTORIES=${_includes}"
    CXX_STANDARD 17
    CXX_STANDARD_REQUIRED ON
    CXX_EXTENSIONS OFF
    COMPILE_OUTPUT_VARIABLE _compile_output
    RUN_OUTPUT_VARIABLE _run_output)
  if(NOT _compile_result)
    message(FATAL_ERROR "Backplane: abi_probe.cpp does not compile:\n${_compile_output}")
  endif()
  string(REPLACE "\r" "" _run_output "${_run_output}")  # a Windows program's text-mode line ends
  if(NOT _run_result EQUAL 0
     OR NOT _run_output MATCHES "platform=([^\n]+)\nabi=([^\n]+)\napi_version=([0-9]+\\.[0-9]+)")
    message(FATAL_ERROR "Backplane: abi_probe failed (exit ${_run_result}):\n${_run_output}")
  endif()
  set(_platform "${CMAKE_MATCH_1}")
  set(_abi "${CMAKE_MATCH_2}")
  set(_api "${CMAKE_MATCH_3}")
  if(_platform MATCHES "unknown" OR _abi STREQUAL "unknown")
    message(FATAL_ERROR
      "Backplane: plugin.hpp does not know this platform or toolchain (platform '${_platform}', "
      "abi '${_abi}'); set BACKPLANE_PLATFORM_TAG and BACKPLANE_ABI_TAG explicitly.")
  endif()
  set(_detected_PLATFORM_TAG "${_platform}")
  set(_detected_ABI_TAG "${_abi}")
  set(_detected_BACKEND_API_VERSION "${_api}")
  foreach(_name IN LISTS _names)
    # A value equal to the last detected one was detected, not chosen: it follows the probe.
    if(NOT BACKPLANE_${_name} OR "${BACKPLANE_${_name}}" STREQUAL "${_BACKPLANE_DETECTED_${_name}}")
      set(BACKPLANE_${_name} "${_detected_${_name}}" CACHE STRING
          "Written into backend manifests (detected by abi_probe.cpp)" FORCE)
    endif()
    set(_BACKPLANE_DETECTED_${_name} "${_detected_${_name}}" CACHE INTERNAL "")
  endforeach()
  set(_BACKPLANE_PROBE_KEY "${_key}" CACHE INTERNAL "SDK headers the manifest tags were probed from")
  message(STATUS "Backplane manifests: platform ${BACKPLANE_PLATFORM_TAG}, "
                 "abi ${BACKPLANE_ABI_TAG}, Backend API ${BACKPLANE_BACKEND_API_VERSION}")
endfunction()

# Returns in `out` the static library of the backend author kit, made once per project: the
# SDK's sources (Backplane::backend_kit's INTERFACE_SOURCES, sdk/CMakeLists.txt: everything in
# libbackplane_sdk but the static-backend list) compiled by this project's compiler, standard
# library and flags, position-independent, with hidden visibility, for size in Release (like the
# adapter above: 217 -> 98 KB of kit per bundled plugin). Each plugin links the objects
# it uses and keeps them private (hidden, and local by the exports file below), so plugins share
# nothing C++ with the runtime or with each other: two plugins' copies never meet, and the
# runtime's own copy stays in libbackplane_sdk. A backend linked into the runtime
# (BACKPLANE_BACKENDS_STATIC) uses that copy through Backplane::sdk, never this library, so no
# object is in libbackplane twice.
function(_backplane_plugin_kit out)
  set(_kit backplane_plugin_kit)
  if(NOT TARGET ${_kit})
    add_library(${_kit} STATIC)
    # PRIVATE: the sources are compiled here only; a plugin gets the headers from INTERFACE below.
    target_link_libraries(${_kit} PRIVATE Backplane::backend_kit)
    target_include_directories(${_kit} INTERFACE
      $<TARGET_PROPERTY:Backplane::backend_kit,INTERFACE_INCLUDE_DIRECTORIES>)
    target_compile_features(${_kit} INTERFACE cxx_std_17)
    get_property(_options GLOBAL PROPERTY BACKPLANE_GLUE_COMPILE_OPTIONS)
    target_compile_options(${_kit} PRIVATE "${_options}")
    set_target_properties(${_kit} PROPERTIES
      POSITION_INDEPENDENT_CODE ON
      CXX_VISIBILITY_PRESET hidden
      VISIBILITY_INLINES_HIDDEN ON)
  endif()
  set(${out} ${_kit} PARENT_SCOPE)
endfunction()

# Writes (once per build tree) the linker input that keeps every symbol but the four entry
# points local, and returns its path in `out` ("" where the linker needs none: on Windows only
# dllexport'ed symbols leave a DLL).
function(_backplane_backend_exports_file out)
  set(_symbols GetBackendId GetVersion BackendFactory BackplanePluginIdentityV1)
  if(APPLE)
    list(TRANSFORM _symbols PREPEND "_")
    list(JOIN _symbols "\n" _content)
    set(_file "${CMAKE_BINARY_DIR}/CMakeFiles/backplane_backend_exports.txt")
  elseif(WIN32)
    set(${out} "" PARENT_SCOPE)
    return()
  else()
    list(JOIN _symbols ";\n    " _content)
    set(_content "{\n  global:\n    ${_content};\n  local:\n    *;\n};")
    set(_file "${CMAKE_BINARY_DIR}/CMakeFiles/backplane_backend_exports.map")
  endif()
  file(CONFIGURE OUTPUT "${_file}" CONTENT "${_content}\n" @ONLY)
  set(${out} "${_file}" PARENT_SCOPE)
endfunction()

# Quotes `value` for use inside a double-quoted argument of generated CMake code.
function(_backplane_cmake_quote out value)
  string(REPLACE "\\" "\\\\" value "${value}")
  string(REPLACE "\"" "\\\"" value "${value}")
  string(REPLACE "$" "\\$" value "${value}")
  set(${out} "${value}" PARENT_SCOPE)
endfunction()

function(backplane_add_backend target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "NO_SHA256"
                        "ID;VENDOR;VERSION;CAPABILITIES;DESCRIPTION;SIGN_KEY"
                        "SOURCES;LINK_LIBRARIES;DEB_DEPENDS")
  set(_where "backplane_add_backend(${target})")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${_where}: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if("SIGN_KEY" IN_LIST arg_KEYWORDS_MISSING_VALUES)
    message(FATAL_ERROR "${_where}: SIGN_KEY needs a private key file (made by `sdk-plugin keygen`); "
                        "leave SIGN_KEY out to build the plugin unsigned")
  endif()
  foreach(_required IN ITEMS ID VENDOR VERSION CAPABILITIES SOURCES)
    if(NOT arg_${_required})
      message(FATAL_ERROR "${_where}: ${_required} is required")
    endif()
  endforeach()
  foreach(_name IN ITEMS ID VENDOR)
    string(LENGTH "${arg_${_name}}" _length)
    if(NOT arg_${_name} MATCHES "^[A-Za-z0-9]+$" OR _length GREATER 64)
      message(FATAL_ERROR "${_where}: ${_name} '${arg_${_name}}' must be 1 to 64 characters from [A-Za-z0-9]")
    endif()
  endforeach()
  if(NOT arg_VERSION MATCHES
     "^(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?(\\+[0-9A-Za-z.-]+)?$")
    message(FATAL_ERROR "${_where}: VERSION '${arg_VERSION}' is not a semantic version")
  endif()
  if(arg_DESCRIPTION MATCHES "[;\n]")
    message(FATAL_ERROR "${_where}: DESCRIPTION must be one line without ';'")
  endif()
  foreach(_relation IN LISTS arg_DEB_DEPENDS)
    if(NOT _relation MATCHES "^[a-z0-9][a-z0-9.+-]+( \\((<<|<=|=|>=|>>) [^ ()]+\\))?( \\| [a-z0-9][a-z0-9.+-]+( \\((<<|<=|=|>=|>>) [^ ()]+\\))?)*$")
      message(FATAL_ERROR "${_where}: DEB_DEPENDS entry '${_relation}' is not a Debian package "
                          "relation such as 'libfoo1' or 'libfoo1 (>= 1.2)'")
    endif()
  endforeach()
  get_filename_component(_capabilities "${arg_CAPABILITIES}" ABSOLUTE
                         BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  if(NOT EXISTS "${_capabilities}")
    message(FATAL_ERROR "${_where}: CAPABILITIES file '${_capabilities}' does not exist")
  endif()
  set(_sign_key "")
  if(DEFINED arg_SIGN_KEY)
    get_filename_component(_sign_key "${arg_SIGN_KEY}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${_sign_key}" OR IS_DIRECTORY "${_sign_key}")
      message(FATAL_ERROR "${_where}: SIGN_KEY file '${_sign_key}' does not exist "
                          "(make a key pair with `sdk-plugin keygen --publisher NAME --out PREFIX`)")
    endif()
    if(arg_NO_SHA256)
      message(FATAL_ERROR "${_where}: SIGN_KEY needs the manifest's sha256 (the signature covers "
                          "the library through it); drop NO_SHA256")
    endif()
  endif()
  if(NOT TARGET Backplane::sdk OR NOT TARGET Backplane::backend_kit)
    message(FATAL_ERROR "${_where}: Backplane::sdk or Backplane::backend_kit is not defined; call "
                        "find_package(Backplane) first")
  endif()
  get_property(_ids GLOBAL PROPERTY BACKPLANE_BACKEND_IDS)
  if(arg_ID IN_LIST _ids)
    message(FATAL_ERROR "${_where}: a backend with id '${arg_ID}' was already added")
  endif()
  set_property(GLOBAL APPEND PROPERTY BACKPLANE_BACKEND_IDS "${arg_ID}")

  # Outside the Backplane build neither option is defined: always a plugin, never static.
  set(_as_plugin ON)
  if(DEFINED BACKPLANE_BACKENDS_AS_PLUGINS AND NOT BACKPLANE_BACKENDS_AS_PLUGINS)
    set(_as_plugin OFF)
  endif()
  set(_as_static OFF)
  if(BACKPLANE_BACKENDS_STATIC)
    if(NOT TARGET backplane_runtime)
      message(FATAL_ERROR "${_where}: BACKPLANE_BACKENDS_STATIC links backends into "
                          "backplane_runtime and works only inside the Backplane build, after runtime/")
    endif()
    get_target_property(_imported backplane_runtime IMPORTED)
    if(_imported)
      message(FATAL_ERROR "${_where}: BACKPLANE_BACKENDS_STATIC cannot add objects to an installed runtime")
    endif()
    set(_as_static ON)
  endif()

  set(_stem "${arg_VENDOR}_${arg_ID}_backend")
  set(_definitions
      "BACKPLANE_BACKEND_ID=${arg_ID}"
      "BACKPLANE_BACKEND_VENDOR=\"${arg_VENDOR}\""
      "BACKPLANE_BACKEND_VERSION=\"${arg_VERSION}\"")

  if(_as_static)
    add_library(${target}_static OBJECT ${arg_SOURCES})
    target_link_libraries(${target}_static PRIVATE Backplane::sdk ${arg_LINK_LIBRARIES})
    target_compile_definitions(${target}_static PRIVATE BACKPLANE_STATIC_BACKEND ${_definitions})
    set_target_properties(${target}_static PROPERTIES
      CXX_VISIBILITY_PRESET hidden
      VISIBILITY_INLINES_HIDDEN ON
      POSITION_INDEPENDENT_CODE ON)
    target_sources(backplane_runtime PRIVATE $<TARGET_OBJECTS:${target}_static>)
    if(arg_LINK_LIBRARIES)
      target_link_libraries(backplane_runtime PRIVATE ${arg_LINK_LIBRARIES})
    endif()
  endif()

  if(NOT _as_plugin)
    return()
  endif()

  _backplane_detect_manifest_tags()
  get_property(_tools GLOBAL PROPERTY BACKPLANE_MANIFEST_TOOLS_DIR)
  set(_script "${_tools}/write_manifest.cmake")
  set(_template "${_tools}/backend-manifest.json.in")

  # The SDK's libraries sit two levels above its backend folder (the runtime's default folder is
  # backplane/backends beside libbackplane), under the SDK's libdir, not the author's.
  if(DEFINED Backplane_BACKEND_INSTALL_DIR)  # from an installed SDK's BackplaneConfig.cmake
    set(_default_install_dir "${Backplane_BACKEND_INSTALL_DIR}")
    get_filename_component(_sdk_libdir "${Backplane_BACKEND_INSTALL_DIR}" DIRECTORY)
    get_filename_component(_sdk_libdir "${_sdk_libdir}" DIRECTORY)
  else()
    set(_default_install_dir "${CMAKE_INSTALL_LIBDIR}/backplane/backends")
    set(_sdk_libdir "${CMAKE_INSTALL_LIBDIR}")
  endif()
  if(DEFINED BACKPLANE_BACKEND_INSTALL_DIR)
    set(_install_dir "${BACKPLANE_BACKEND_INSTALL_DIR}")
  else()
    set(_install_dir "${_default_install_dir}")
  endif()
  if(DEFINED BACKPLANE_BACKEND_OUTPUT_DIR)
    set(_output_dir "${BACKPLANE_BACKEND_OUTPUT_DIR}")
  else()
    set(_output_dir "${CMAKE_BINARY_DIR}/lib/backplane/backends")
  endif()

  # RPATH: from the installed plugin to the SDK's library folder under the same prefix, for
  # libraries of LINK_LIBRARIES installed there (the plugin itself loads none of the SDK's).
  set(_from "${_install_dir}")
  set(_to "${_sdk_libdir}")
  if(NOT IS_ABSOLUTE "${_from}")
    set(_from "${CMAKE_INSTALL_PREFIX}/${_from}")
  endif()
  if(NOT IS_ABSOLUTE "${_to}")
    set(_to "${CMAKE_INSTALL_PREFIX}/${_to}")
  endif()
  file(RELATIVE_PATH _to_libdir "${_from}" "${_to}")
  string(REGEX REPLACE "/$" "" _to_libdir "${_to_libdir}")
  if(APPLE)
    set(_rpath "@loader_path")
  else()
    set(_rpath "$ORIGIN")
  endif()
  if(_to_libdir)
    string(APPEND _rpath "/${_to_libdir}")
  endif()

  add_library(${target} MODULE ${arg_SOURCES})
  _backplane_compile_entry_for_size(${target} ${arg_SOURCES})
  _backplane_plugin_kit(_kit)
  target_link_libraries(${target} PRIVATE ${_kit} ${arg_LINK_LIBRARIES})
  target_compile_definitions(${target} PRIVATE ${_definitions})
  set_target_properties(${target} PROPERTIES
    OUTPUT_NAME "${_stem}"
    PREFIX ""
    SUFFIX "${CMAKE_SHARED_LIBRARY_SUFFIX}"
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    LIBRARY_OUTPUT_DIRECTORY "${_output_dir}"
    INSTALL_RPATH "${_rpath}")
  _backplane_backend_exports_file(_exports)
  if(_exports AND APPLE)
    target_link_options(${target} PRIVATE "LINKER:-exported_symbols_list,${_exports}")
  elseif(_exports)
    target_link_options(${target} PRIVATE "LINKER:--version-script=${_exports}")
  endif()
  # Relinking reruns the POST_BUILD step, so an edited capabilities file, template or script
  # also renews the manifest.
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS
               "${_capabilities}" "${_script}" "${_template}" ${_exports})

  set(_sha256 ON)
  if(arg_NO_SHA256)
    set(_sha256 OFF)
  endif()
  set(_manifest_args
      "-DID=${arg_ID}"
      "-DVENDOR=${arg_VENDOR}"
      "-DVERSION=${arg_VERSION}"
      "-DAPI_VERSION=${BACKPLANE_BACKEND_API_VERSION}"
      "-DPLATFORM=${BACKPLANE_PLATFORM_TAG}"
      "-DABI=${BACKPLANE_ABI_TAG}"
      "-DCAPABILITIES=${_capabilities}"
      "-DDESCRIPTION=${arg_DESCRIPTION}"
      "-DSHA256=${_sha256}")
  # Listed so that "clean" removes it; multi-config generators add a folder per configuration.
  get_property(_multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  set(_byproducts "")
  if(NOT _multi_config)
    set(_byproducts BYPRODUCTS "${_output_dir}/${_stem}.json")
  endif()
  # First, so the manifest below hashes the stripped file.
  backplane_split_debug_symbols(${target})
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND "${CMAKE_COMMAND}"
            "-DLIBRARY=$<TARGET_FILE:${target}>"
            "-DMANIFEST=$<TARGET_FILE_DIR:${target}>/${_stem}.json"
            ${_manifest_args}
            -P "${_script}"
    ${_byproducts}
    COMMENT "Writing manifest ${_stem}.json"
    VERBATIM)

  # Then the signature, <stem>.json.sig beside the manifest, over its bytes as just written.
  # The SDK's own build signs its plugins with the build key when it builds sdk-plugin, i.e. when
  # target backplane_build_key exists (packaging/cmake/BackplaneBuildKey.cmake, which also adds
  # the dependencies on that target and on sdk-plugin): tools/ comes after plugins/, so that is
  # known only when the build system is generated. Elsewhere only with SIGN_KEY, through the
  # installed SDK's sdk-plugin.
  set(_sign OFF)
  set(_sign_publisher "")
  if(DEFINED BACKPLANE_TOP_LEVEL AND DEFINED BACKPLANE_BUILD_SIGNING_KEY AND NOT arg_NO_SHA256)
    set(_sign ON)
    set(_sign_tool "$<$<TARGET_EXISTS:backplane_build_key>:$<TARGET_FILE:sdk-plugin>>")
    if(NOT _sign_key)
      set(_sign_key "${BACKPLANE_BUILD_SIGNING_KEY}")
      set(_sign_publisher "${BACKPLANE_BUILD_SIGNING_PUBLISHER}")
    endif()
    set_property(GLOBAL APPEND PROPERTY BACKPLANE_SIGNED_BACKEND_TARGETS ${target})
  elseif(_sign_key)
    if(NOT TARGET Backplane::sdk-plugin)
      message(FATAL_ERROR "${_where}: SIGN_KEY needs sdk-plugin, and the Backplane package found "
                          "(${Backplane_DIR}) has none: Backplane::sdk-plugin is not defined because "
                          "its bin/sdk-plugin is missing; install the SDK's runtime component")
    endif()
    set(_sign ON)
    set(_sign_tool "$<TARGET_FILE:Backplane::sdk-plugin>")
  endif()
  if(_sign)
    set(_sign_script "${_tools}/sign_manifest.cmake")
    set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS "${_sign_script}")
    if(NOT _sign_key STREQUAL "${BACKPLANE_BUILD_SIGNING_KEY}")
      set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS "${_sign_key}")  # a new key re-signs
    endif()
    set(_sign_byproducts "")
    if(NOT _multi_config)
      set(_sign_byproducts BYPRODUCTS "${_output_dir}/${_stem}.json.sig")
    endif()
    add_custom_command(TARGET ${target} POST_BUILD
      COMMAND "${CMAKE_COMMAND}"
              "-DSDK_PLUGIN=${_sign_tool}"
              "-DEMULATOR=${CMAKE_CROSSCOMPILING_EMULATOR}"
              "-DMANIFEST=$<TARGET_FILE_DIR:${target}>/${_stem}.json"
              "-DKEY=${_sign_key}"
              "-DPUBLISHER=${_sign_publisher}"
              -P "${_sign_script}"
      ${_sign_byproducts}
      COMMENT "Signing manifest ${_stem}.json"
      VERBATIM)
  endif()

  # Install only from a top-level Backplane build, or always from an author's own project.
  if(DEFINED BACKPLANE_TOP_LEVEL AND NOT BACKPLANE_TOP_LEVEL)
    return()
  endif()
  string(TOLOWER "backend_${arg_ID}" _component)  # no "-": NSIS refuses it in component names
  set_property(GLOBAL APPEND PROPERTY BACKPLANE_BACKEND_COMPONENTS "${_component}")
  set_property(GLOBAL PROPERTY BACKPLANE_BACKEND_PACKAGE_${_component}
               "${arg_VENDOR}" "${arg_ID}" "${arg_DESCRIPTION}")
  set_property(GLOBAL PROPERTY BACKPLANE_BACKEND_DEB_DEPENDS_${_component} "${arg_DEB_DEPENDS}")
  install(TARGETS ${target}
    LIBRARY DESTINATION "${_install_dir}" COMPONENT "${_component}")
  install(FILES "$<TARGET_FILE_DIR:${target}>/${_stem}.json"
    DESTINATION "${_install_dir}" COMPONENT "${_component}")
  if(_sign)
    # Listed here so that it belongs to the component; signed again below against the
    # installed manifest. OPTIONAL: the SDK's build without sdk-plugin signs nothing.
    install(FILES "$<TARGET_FILE_DIR:${target}>/${_stem}.json.sig"
      DESTINATION "${_install_dir}" COMPONENT "${_component}" OPTIONAL)
  endif()

  set(_quoted_args "")
  foreach(_arg IN LISTS _manifest_args)
    _backplane_cmake_quote(_quoted "${_arg}")
    string(APPEND _quoted_args " \"${_quoted}\"")
  endforeach()
  _backplane_cmake_quote(_quoted_dir "${_install_dir}")
  _backplane_cmake_quote(_quoted_script "${_script}")
  # The installed manifest differs from the built one (its sha256 is of the installed file), so
  # it is signed again, with the same key, by the same sdk-plugin: install and CPack run from
  # this build tree. (_sign_tool is a generator expression, left unquoted like
  # $<TARGET_FILE_NAME> above; the paths it gives use forward slashes.)
  set(_sign_code "")
  if(_sign)
    _backplane_cmake_quote(_quoted_key "${_sign_key}")
    _backplane_cmake_quote(_quoted_publisher "${_sign_publisher}")
    _backplane_cmake_quote(_quoted_sign_script "${_sign_script}")
    set(_sign_code "
    if(NOT \"${_sign_tool}\" STREQUAL \"\")
      message(STATUS \"Signing manifest: \${_backplane_dir}/${_stem}.json.sig\")
    endif()
    execute_process(
      COMMAND \"\${CMAKE_COMMAND}\"
              \"-DSDK_PLUGIN=${_sign_tool}\"
              \"-DEMULATOR=${CMAKE_CROSSCOMPILING_EMULATOR}\"
              \"-DMANIFEST=\${_backplane_dir}/${_stem}.json\"
              \"-DKEY=${_quoted_key}\"
              \"-DPUBLISHER=${_quoted_publisher}\"
              -P \"${_quoted_sign_script}\"
      RESULT_VARIABLE _backplane_result)
    if(NOT _backplane_result EQUAL 0)
      message(FATAL_ERROR \"Signing the installed manifest of ${_stem} failed\")
    endif()")
  endif()
  install(CODE "
    set(_backplane_dir \"${_quoted_dir}\")
    if(NOT IS_ABSOLUTE \"\${_backplane_dir}\")
      set(_backplane_dir \"\${CMAKE_INSTALL_PREFIX}/\${_backplane_dir}\")
    endif()
    set(_backplane_dir \"\$ENV{DESTDIR}\${_backplane_dir}\")
    message(STATUS \"Writing manifest: \${_backplane_dir}/${_stem}.json\")
    execute_process(
      COMMAND \"\${CMAKE_COMMAND}\"
              \"-DLIBRARY=\${_backplane_dir}/$<TARGET_FILE_NAME:${target}>\"
              \"-DMANIFEST=\${_backplane_dir}/${_stem}.json\"
              ${_quoted_args}
              -P \"${_quoted_script}\"
      RESULT_VARIABLE _backplane_result)
    if(NOT _backplane_result EQUAL 0)
      message(FATAL_ERROR \"Writing the installed manifest of ${_stem} failed\")
    endif()${_sign_code}"
    COMPONENT "${_component}")
endfunction()

# backplane_split_debug_symbols(<target>)
#
# Release ELF builds ship <target>'s file stripped, its symbols in <file>.debug beside it
# (split_debug_symbols.cmake, after every link; a .gnu_debuglink section lets gdb and perf find
# them). backplane_add_backend() calls it for every plugin, before the manifest hashes the file;
# the SDK calls it for its own libraries and tools. When BACKPLANE_DEBUG_SYMBOLS_TREE names a
# folder, the .debug file is also filed there by build id (.build-id/<xx>/<rest>.debug, the
# layout gdb searches under /usr/lib/debug): install that folder as lib/debug to ship the
# symbols (the SDK's backplane-dbg package does). Does nothing on Windows, macOS, without objcopy
# and readelf, and in sanitizer builds (their reports need the symbols in place).
function(backplane_split_debug_symbols target)
  if(NOT CMAKE_OBJCOPY OR NOT CMAKE_READELF OR WIN32 OR APPLE OR BACKPLANE_SANITIZE)
    return()
  endif()
  get_property(_tools GLOBAL PROPERTY BACKPLANE_MANIFEST_TOOLS_DIR)
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND "${CMAKE_COMMAND}" "-DLIBRARY=$<TARGET_FILE:${target}>" "-DOBJCOPY=${CMAKE_OBJCOPY}"
            "-DREADELF=${CMAKE_READELF}" "-DBUILD_ID_TREE=${BACKPLANE_DEBUG_SYMBOLS_TREE}"
            "-DCONFIG=$<CONFIG>" -P "${_tools}/split_debug_symbols.cmake"
    COMMENT "Splitting the symbols of ${target} into $<TARGET_FILE_NAME:${target}>.debug (Release)"
    VERBATIM)
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS "${_tools}/split_debug_symbols.cmake")
endfunction()

# backplane_wrap_text(<out variable> <text>...)
#
# Joins the texts and breaks the result into lines of at most 79 characters at spaces (a word
# longer than that keeps its own line), for installer descriptions: Debian wants control file
# lines of at most 80 columns.
function(backplane_wrap_text out)
  string(CONCAT _text ${ARGN})
  string(REGEX REPLACE "[ \t\n]+" ";" _words "${_text}")
  set(_lines "")
  set(_line "")
  foreach(_word IN LISTS _words)
    string(LENGTH "${_line} ${_word}" _length)
    if(_line STREQUAL "")
      set(_line "${_word}")
    elseif(_length GREATER 79)
      string(APPEND _lines "${_line}\n")
      set(_line "${_word}")
    else()
      string(APPEND _line " ${_word}")
    endif()
  endforeach()
  set(${out} "${_lines}${_line}" PARENT_SCOPE)
endfunction()

# backplane_set_backend_package_variables(<runtime relation>)
#
# For every backend added (and installed) so far in this project, sets the CPack variables of
# its install component backend_<id in lower case>, in the caller's scope, before include(CPack):
#   CPACK_DEBIAN_<COMPONENT>_PACKAGE_NAME     <vendor>-backend-<id>, lower case
#                                             (backplane-backend-cpuref, example-backend-cpuexample)
#   CPACK_DEBIAN_<COMPONENT>_PACKAGE_DEPENDS  <runtime relation>, then the backend's DEB_DEPENDS
#   CPACK_COMPONENT_<COMPONENT>_DISPLAY_NAME / _DESCRIPTION   for NSIS and other installers
# <runtime relation> is the Debian relation on the SDK's runtime package, e.g.
# "libbackplane0 (= 0.2.0-1)" inside the SDK, "${Backplane_DEB_RUNTIME_PACKAGE} (>= 0.2)" for an
# author's backend. A macro, so the variables land where include(CPack) reads them.
macro(backplane_set_backend_package_variables _bp_runtime_relation)
  get_property(_bp_components GLOBAL PROPERTY BACKPLANE_BACKEND_COMPONENTS)
  foreach(_bp_component IN LISTS _bp_components)
    string(TOUPPER "${_bp_component}" _bp_upper)
    get_property(_bp_package GLOBAL PROPERTY BACKPLANE_BACKEND_PACKAGE_${_bp_component})
    list(GET _bp_package 0 _bp_vendor)
    list(GET _bp_package 1 _bp_id)
    list(LENGTH _bp_package _bp_fields)
    set(_bp_description "")
    if(_bp_fields GREATER 2)
      list(GET _bp_package 2 _bp_description)
    endif()
    get_property(_bp_depends GLOBAL PROPERTY BACKPLANE_BACKEND_DEB_DEPENDS_${_bp_component})
    list(PREPEND _bp_depends "${_bp_runtime_relation}")
    list(JOIN _bp_depends ", " _bp_depends)
    string(TOLOWER "${_bp_vendor}-backend-${_bp_id}" CPACK_DEBIAN_${_bp_upper}_PACKAGE_NAME)
    set(CPACK_DEBIAN_${_bp_upper}_PACKAGE_DEPENDS "${_bp_depends}")
    set(CPACK_COMPONENT_${_bp_upper}_DISPLAY_NAME "${_bp_id} backend (${_bp_vendor})")
    if(_bp_description)
      backplane_wrap_text(CPACK_COMPONENT_${_bp_upper}_DESCRIPTION "${_bp_description}")
    endif()
  endforeach()
  unset(_bp_components)
  unset(_bp_component)
  unset(_bp_upper)
  unset(_bp_package)
  unset(_bp_vendor)
  unset(_bp_id)
  unset(_bp_fields)
  unset(_bp_description)
  unset(_bp_depends)
endmacro()
