# CPack: the SDK's installers, split into install components (see docs/installing.md).
#
#   runtime            libbackplane, libbackplane_sdk, libbackplane_onnx (versioned), sdk-info,
#                      sdk-run, libexec/backplane/backplane-plugin-probe -> backplane-runtime
#   dev                headers, .so links, lib/cmake/Backplane (with the backend author kit),
#                      pkg-config file, manifest schema          -> backplane-dev
#   backend-<id>       one per bundled backend: plugin + manifest
#                      in lib/backplane/backends/               -> backplane-backend-<id>
#
# Generators: DEB (one package per component) and TGZ (one tree) on Linux, NSIS (one installer
# with a page of components) and ZIP on Windows, TGZ elsewhere. Build them from a configured
# build tree with `cpack -G DEB` (or TGZ, NSIS). Included last by packaging/CMakeLists.txt,
# after every install() call, so CPack sees every component.
include_guard(GLOBAL)

set(CPACK_PACKAGE_NAME "backplane")
set(CPACK_PACKAGE_VENDOR "Backplane")
set(CPACK_PACKAGE_CONTACT "Backplane maintainers <backplane@example.org>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_INSTALL_DIRECTORY "Backplane ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR}")
set(CPACK_RESOURCE_FILE_README "${PROJECT_SOURCE_DIR}/README.md")
set(CPACK_STRIP_FILES OFF)  # installed manifests carry the sha256 of the file as installed
set(CPACK_SOURCE_IGNORE_FILES "/\\\\.git/" "/build[^/]*/")

if(WIN32)
  set(CPACK_GENERATOR "NSIS;ZIP")
elseif(CMAKE_SYSTEM_NAME STREQUAL "Linux")
  set(CPACK_GENERATOR "DEB;TGZ")
else()
  set(CPACK_GENERATOR "TGZ")
endif()

# ---- Components ------------------------------------------------------------------------------
set(CPACK_COMPONENT_RUNTIME_DISPLAY_NAME "Runtime and tools")
set(CPACK_COMPONENT_RUNTIME_DESCRIPTION
    "The Backplane runtime libraries, the ONNX importer and the sdk-info and sdk-run tools.")
set(CPACK_COMPONENT_RUNTIME_REQUIRED ON)
set(CPACK_COMPONENT_DEV_DISPLAY_NAME "Development files")
string(CONCAT CPACK_COMPONENT_DEV_DESCRIPTION
    "C++ headers, the CMake package (find_package(Backplane)) with backplane_add_backend() for "
    "backend authors, the pkg-config file and the manifest schema.")
set(CPACK_COMPONENT_DEV_DEPENDS runtime)
get_property(_backplane_backend_components GLOBAL PROPERTY BACKPLANE_BACKEND_COMPONENTS)
foreach(_component IN LISTS _backplane_backend_components)
  string(TOUPPER "${_component}" _upper)
  set(CPACK_COMPONENT_${_upper}_DEPENDS runtime)
  set(CPACK_COMPONENT_${_upper}_GROUP backends)
endforeach()
set(CPACK_COMPONENT_GROUP_BACKENDS_DISPLAY_NAME "Backends")
set(CPACK_COMPONENT_GROUP_BACKENDS_EXPANDED ON)
set(CPACK_COMPONENTS_ALL runtime dev ${_backplane_backend_components})

# ---- Archives: one tree, every component (relocatable: see docs/installing.md) ---------------
set(CPACK_ARCHIVE_COMPONENT_INSTALL OFF)

# ---- DEB: one package per component --------------------------------------------------------
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_GROUPING IGNORE)  # one package per component (the group is for NSIS)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # <name>_<version>-<release>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SECTION "libs")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://example.org/backplane")
# CPack installs DEB packages under /usr (its default CPACK_PACKAGING_INSTALL_PREFIX for DEB;
# archives stay relative). The libraries, plugins and manifests keep their places relative to each other under /usr, so
# the runtime's default backend folder (<libdir of libbackplane>/backplane/backends) holds the
# plugins whatever CMAKE_INSTALL_LIBDIR was.
set(_backplane_deb_version "${PROJECT_VERSION}-${CPACK_DEBIAN_PACKAGE_RELEASE}")
set(_backplane_same_runtime "backplane-runtime (= ${_backplane_deb_version})")

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME "backplane-runtime")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION "libs")
# What the runtime's shared libraries and tools load (ldd, then dpkg -S, on Debian 12; the
# packaging test checks this list against ldd of the installed files).
set(BACKPLANE_DEB_RUNTIME_DEPENDS
    "libc6" "libstdc++6" "libgcc-s1" "libssl3" "libboost-program-options1.74.0"
    CACHE STRING "Debian packages the backplane-runtime package depends on")
set(_runtime_depends ${BACKPLANE_DEB_RUNTIME_DEPENDS})
if(TARGET backplane_onnx)
  set(BACKPLANE_DEB_ONNX_DEPENDS "libonnx1" "libprotobuf32"
      CACHE STRING "Debian packages the ONNX importer (in backplane-runtime) depends on")
  list(APPEND _runtime_depends ${BACKPLANE_DEB_ONNX_DEPENDS})
endif()
# sdk-plugin reads archive drops with libarchive when the build found it (tools/sdk-plugin).
if(TARGET sdk_plugin_objects)
  get_target_property(_backplane_plugin_tool_libraries sdk_plugin_objects LINK_LIBRARIES)
  if("LibArchive::LibArchive" IN_LIST _backplane_plugin_tool_libraries)
    set(BACKPLANE_DEB_ARCHIVE_DEPENDS "libarchive13"
        CACHE STRING "Debian packages sdk-plugin's archive support (in backplane-runtime) depends on")
    list(APPEND _runtime_depends ${BACKPLANE_DEB_ARCHIVE_DEPENDS})
  endif()
endif()
list(JOIN _runtime_depends ", " CPACK_DEBIAN_RUNTIME_PACKAGE_DEPENDS)

set(CPACK_DEBIAN_DEV_PACKAGE_NAME "backplane-dev")
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION "libdevel")
# Public headers include the C++ standard library only (ARCHITECTURE.md).
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "${_backplane_same_runtime}")

# backplane-backend-<id>: the runtime of the same version, then the backend's DEB_DEPENDS.
backplane_set_backend_package_variables("${_backplane_same_runtime}")

# ---- NSIS (Windows) ----------------------------------------------------------------------------
set(CPACK_NSIS_DISPLAY_NAME "Backplane SDK ${PROJECT_VERSION}")
set(CPACK_NSIS_PACKAGE_NAME "Backplane SDK ${PROJECT_VERSION}")
set(CPACK_NSIS_MODIFY_PATH ON)  # offers to put <prefix>\bin (sdk-info, the DLLs) on PATH
set(CPACK_NSIS_ENABLE_UNINSTALL_BEFORE_INSTALL ON)
set(CPACK_NSIS_INSTALLED_ICON_NAME "bin\\\\sdk-info.exe")
set(CPACK_NSIS_URL_INFO_ABOUT "${CPACK_DEBIAN_PACKAGE_HOMEPAGE}")
set(CPACK_NSIS_CONTACT "${CPACK_PACKAGE_CONTACT}")

include(CPack)
