# CPack: the SDK's installers, split into install components (see docs/installing.md).
#
#   runtime            libbackplane, libbackplane_sdk, libbackplane_onnx (versioned),
#                      libexec/backplane/backplane-plugin-probe, the build key's public half
#                                                                -> libbackplane<major>
#   tools              sdk-info, sdk-run, sdk-plugin, their man pages, share/doc/backplane
#                                                                -> backplane-tools
#   dev                headers, .so links, lib/cmake/Backplane (with the backend author kit),
#                      pkg-config files, manifest schema         -> backplane-dev
#   debug              the .debug files of every Release binary above and of the bundled
#                      backends, by build id in lib/debug         -> backplane-dbg
#   backend_<id>       one per bundled backend: plugin + manifest
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
set(CPACK_RESOURCE_FILE_LICENSE "${PROJECT_SOURCE_DIR}/LICENSE")  # the installers' licence page
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
# Descriptions are wrapped at 79 columns (Debian's control files want short lines).
set(CPACK_COMPONENT_RUNTIME_DISPLAY_NAME "Runtime")
backplane_wrap_text(CPACK_COMPONENT_RUNTIME_DESCRIPTION
  "The Backplane runtime libraries (libbackplane, libbackplane_sdk, the ONNX importer "
  "libbackplane_onnx), the plugin probe and the key the bundled backends are signed with.")
set(CPACK_COMPONENT_RUNTIME_REQUIRED ON)
set(CPACK_COMPONENT_TOOLS_DISPLAY_NAME "Tools")
backplane_wrap_text(CPACK_COMPONENT_TOOLS_DESCRIPTION
  "sdk-info (which backends this machine can use, and why not), sdk-run (runs and times an "
  "ONNX model on the backends), sdk-plugin (installs, verifies and signs backend drops), their "
  "manual pages and the SDK's documentation.")
set(CPACK_COMPONENT_TOOLS_DEPENDS runtime)
set(CPACK_COMPONENT_DEV_DISPLAY_NAME "Development files")
backplane_wrap_text(CPACK_COMPONENT_DEV_DESCRIPTION
  "C++ headers, the CMake package (find_package(Backplane)) with backplane_add_backend() for "
  "backend authors, the pkg-config files and the manifest schema.")
set(CPACK_COMPONENT_DEV_DEPENDS runtime)
set(CPACK_COMPONENT_DEBUG_DISPLAY_NAME "Debug symbols")
backplane_wrap_text(CPACK_COMPONENT_DEBUG_DESCRIPTION
  "The symbols (line tables) of the SDK's stripped libraries, tools and bundled backends, "
  "filed by build id in lib/debug/.build-id, where gdb and perf find them.")
set(CPACK_COMPONENT_DEBUG_DEPENDS runtime)
set(CPACK_COMPONENT_DEBUG_DISABLED ON)  # not selected by default in installers
get_property(_backplane_backend_components GLOBAL PROPERTY BACKPLANE_BACKEND_COMPONENTS)
foreach(_component IN LISTS _backplane_backend_components)
  string(TOUPPER "${_component}" _upper)
  set(CPACK_COMPONENT_${_upper}_DEPENDS runtime)
  set(CPACK_COMPONENT_${_upper}_GROUP backends)
endforeach()
set(CPACK_COMPONENT_GROUP_BACKENDS_DISPLAY_NAME "Backends")
set(CPACK_COMPONENT_GROUP_BACKENDS_EXPANDED ON)
# The debug component holds the split symbols of ELF builds (backplane_split_debug_symbols());
# a Windows build has none, and NSIS refuses an empty section.
set(_backplane_debug_component debug)
if(WIN32)
  set(_backplane_debug_component "")
endif()
set(CPACK_COMPONENTS_ALL runtime tools dev ${_backplane_debug_component} ${_backplane_backend_components})

# ---- Archives: one tree, every component (relocatable: see docs/installing.md) ---------------
set(CPACK_ARCHIVE_COMPONENT_INSTALL OFF)

# ---- DEB: one package per component --------------------------------------------------------
# Checked with lintian by the test "packaging: lintian" (zero errors, zero warnings; overrides in
# packaging/debian/, each with its reason). Each package gets usr/share/doc/<package>/copyright
# and changelog.Debian.gz from packaging/debian (debian_package_docs.cmake, a CPack pre-build
# script); Depends come from dpkg-shlibdeps, plus the relations between the SDK's own packages.
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_GROUPING IGNORE)  # one package per component (the group is for NSIS)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # <name>_<version>-<release>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SECTION "libs")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://example.org/backplane")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The SDK's own libraries, for the tools' and plugins' dependencies on them (dpkg-shlibdeps
# finds them in the staging folders; the relation itself is written below).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS "${PROJECT_BINARY_DIR}/${CMAKE_INSTALL_LIBDIR}")
# DEBIAN/shlibs for the library package (its ldconfig trigger: CPACK_POST_BUILD_SCRIPTS below).
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
# CPack installs DEB packages under /usr (its default CPACK_PACKAGING_INSTALL_PREFIX for DEB;
# archives stay relative). The libraries, plugins and manifests keep their places relative to
# each other under /usr, so the runtime's default backend folder (<libdir of
# libbackplane>/backplane/backends) holds the plugins whatever CMAKE_INSTALL_LIBDIR was.
set(_backplane_deb_version "${PROJECT_VERSION}-${CPACK_DEBIAN_PACKAGE_RELEASE}")
# The runtime package is named after libbackplane's soname (Debian policy 8.1): a new major
# makes libbackplane1, installable beside this one.
set(BACKPLANE_DEB_RUNTIME_PACKAGE "libbackplane${PROJECT_VERSION_MAJOR}")
set(_backplane_same_runtime "${BACKPLANE_DEB_RUNTIME_PACKAGE} (= ${_backplane_deb_version})")

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME "${BACKPLANE_DEB_RUNTIME_PACKAGE}")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION "libs")

set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME "backplane-tools")
set(CPACK_DEBIAN_TOOLS_PACKAGE_SECTION "utils")
set(CPACK_DEBIAN_TOOLS_PACKAGE_DEPENDS "${_backplane_same_runtime}")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME "backplane-dev")
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION "libdevel")
# Public headers include the C++ standard library only (ARCHITECTURE.md). The headers and the
# CMake package are of this very runtime (the .so links point into it).
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "${_backplane_same_runtime}")
set(CPACK_DEBIAN_DEV_PACKAGE_SHLIBDEPS OFF)  # no binaries

set(CPACK_DEBIAN_DEBUG_PACKAGE_NAME "backplane-dbg")
set(CPACK_DEBIAN_DEBUG_PACKAGE_SECTION "debug")
set(CPACK_DEBIAN_DEBUG_PACKAGE_DEPENDS "${_backplane_same_runtime}")
set(CPACK_DEBIAN_DEBUG_PACKAGE_SHLIBDEPS OFF)  # the .debug files load nothing

# backplane-backend-<id>: the runtime of the same version, then the backend's DEB_DEPENDS.
backplane_set_backend_package_variables("${_backplane_same_runtime}")

# Every package: copyright and changelog (packaging/debian/), and its lintian overrides.
string(TIMESTAMP _backplane_deb_date "%a, %d %b %Y %H:%M:%S +0000" UTC)  # SOURCE_DATE_EPOCH wins
set(CPACK_BACKPLANE_DEB_CHANGELOG "${PROJECT_BINARY_DIR}/packaging/changelog.Debian")
set(DEB_SOURCE "backplane")
set(DEB_VERSION "${_backplane_deb_version}")
set(DEB_MAINTAINER "${CPACK_PACKAGE_CONTACT}")
set(DEB_DATE "${_backplane_deb_date}")
configure_file("${PROJECT_SOURCE_DIR}/packaging/debian/changelog.in" "${CPACK_BACKPLANE_DEB_CHANGELOG}" @ONLY)
set(CPACK_BACKPLANE_DEB_DOCS_FOLDER "${PROJECT_SOURCE_DIR}/packaging/debian")
set(CPACK_PRE_BUILD_SCRIPTS "${PROJECT_SOURCE_DIR}/packaging/debian/debian_package_docs.cmake")
# ldconfig through a dpkg trigger rather than CPack's maintainer scripts.
set(CPACK_POST_BUILD_SCRIPTS "${PROJECT_SOURCE_DIR}/packaging/debian/debian_ldconfig_trigger.cmake")

# ---- NSIS (Windows) ----------------------------------------------------------------------------
# A 64-bit installer for a 64-bit SDK: makensis with "Target amd64-unicode" (the script says why).
set(CPACK_NSIS_EXECUTABLE "${PROJECT_SOURCE_DIR}/packaging/windows/makensis-amd64.sh")
set(CPACK_NSIS_DISPLAY_NAME "Backplane SDK ${PROJECT_VERSION}")
set(CPACK_NSIS_PACKAGE_NAME "Backplane SDK ${PROJECT_VERSION}")
set(CPACK_NSIS_MODIFY_PATH ON)  # offers to put <prefix>\bin (sdk-info, the DLLs) on PATH
set(CPACK_NSIS_ENABLE_UNINSTALL_BEFORE_INSTALL ON)
set(CPACK_NSIS_INSTALLED_ICON_NAME "bin\\\\sdk-info.exe")
set(CPACK_NSIS_URL_INFO_ABOUT "${CPACK_DEBIAN_PACKAGE_HOMEPAGE}")
set(CPACK_NSIS_CONTACT "${CPACK_PACKAGE_CONTACT}")
# CMake's package registry: find_package(Backplane) finds the installed SDK with no hint (a
# value of HKLM\Software\Kitware\CMake\Packages\Backplane for an install for all users, of
# HKCU for one user: NSIS's SHCTX); the uninstaller removes it. Four backslashes make one in the
# NSIS script (CPack writes these values into its configuration file unescaped).
string(REPLACE "/" "\\\\" _nsis_cmake_dir "${BACKPLANE_CMAKE_INSTALL_DIR}")
set(_nsis_registry_key "'Software\\\\Kitware\\\\CMake\\\\Packages\\\\Backplane'")
set(_nsis_registry_value "'Backplane-${PROJECT_VERSION}'")
set(CPACK_NSIS_EXTRA_INSTALL_COMMANDS
  "WriteRegStr SHCTX ${_nsis_registry_key} ${_nsis_registry_value} '$INSTDIR\\\\${_nsis_cmake_dir}'")
set(CPACK_NSIS_EXTRA_UNINSTALL_COMMANDS
  "DeleteRegValue SHCTX ${_nsis_registry_key} ${_nsis_registry_value}
  DeleteRegKey /ifempty SHCTX ${_nsis_registry_key}")

include(CPack)
