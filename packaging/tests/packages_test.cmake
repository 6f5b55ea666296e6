# ctest "packaging: DEB and TGZ packages" (and "..., prefix /usr", the packages of a build tree for
# the other usual prefix: prefix_build.cmake): builds the packages of a build tree with cpack into
# a scratch folder and checks them:
#   - one DEB per component: libbackplane<major> (the runtime), backplane-tools, backplane-dev,
#     backplane-dbg (Release builds), backplane-backend-<id>, each holding its own files and
#     none of the others', and each its usr/share/doc/<package>/copyright and
#     changelog.Debian.gz; Depends fields (tools, dev, dbg and backends on the runtime of the
#     same version, backends also on their DEB_DEPENDS, the runtime and the tools on the Debian
#     packages of every shared library their files load, found with ldd + dpkg -S); the runtime's
#     shlibs file; stripped binaries whose symbols are in backplane-dbg, filed by build id in
#     /usr/lib/debug/.build-id whatever the libdir, where gdb finds them (unpacked, each ELF
#     file's .debug by its build id, and gdb reads sdk-info's line table when installed);
#   - the bundled plugins lie in <libdir>/backplane/backends, <libdir> being where the runtime
#     package puts libbackplane: the folder that libbackplane searches by default;
#   - a third-party backend packaged the way the docs say (examples/backend built against the
#     SDK's backplane-dev and backplane-runtime DEBs, unpacked, then `cpack -G DEB`) lands in
#     that same folder although its own GNUInstallDirs libdir is the other usual spelling
#     (lib vs lib/<multiarch>); the dev package's CMake variables (Backplane_BACKEND_DIR,
#     Backplane_BACKEND_INSTALL_DIR) and pkg-config `backenddir` name that folder too;
#   - the TGZ holds one relocatable tree with bin/sdk-info, the libraries and the plugins, whose
#     signatures (made again by CPack against the packaged manifests) verify under policy require,
#     and the symbols in lib/debug, where gdb told so finds sdk-info's;
#   - the runtime package holds sdk-plugin and the build key's public half, each backend package
#     its manifest's .sig, and no package a private key;
#   - as root with dpkg, and only when no backplane package is installed already: dpkg -i of
#     the runtime, backend and example backend packages, /usr/bin/sdk-info lists CpuRef and
#     CpuExample from the packaged folder, then dpkg -r removes them again (also when a check
#     fails).
#
#   cmake -DBUILD_DIR=<build tree> -DWORK=<scratch folder> -DVERSION=<x.y.z>
#         -DBACKENDS=<id,id...> [-DDEB_DEPENDS_<id>=<relation,...>]
#         -DEXAMPLE_SOURCE=<examples/backend> -DGENERATOR=<generator> [-DMAN_PAGES=<help2man>]
#         [-DSTRIPPED=ON (a Release build: binaries stripped, symbols in backplane-dbg)]
#         -P packages_test.cmake
foreach(_name IN ITEMS BUILD_DIR WORK VERSION BACKENDS EXAMPLE_SOURCE GENERATOR)
  if(NOT DEFINED ${_name})
    message(FATAL_ERROR "${_name} is not set")
  endif()
endforeach()
string(REPLACE "," ";" BACKENDS "${BACKENDS}")
foreach(_id IN LISTS BACKENDS)
  string(REPLACE "," ";" DEB_DEPENDS_${_id} "${DEB_DEPENDS_${_id}}")
endforeach()
find_program(DPKG_DEB dpkg-deb)
if(NOT DPKG_DEB)
  message("skipped: dpkg-deb is not installed")  # SKIP_REGULAR_EXPRESSION
  return()
endif()

file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
execute_process(
  COMMAND "${CMAKE_CPACK_COMMAND}" -G "DEB;TGZ" --config "${BUILD_DIR}/CPackConfig.cmake" -B "${WORK}"
  RESULT_VARIABLE _result OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
if(NOT _result EQUAL 0)
  message(FATAL_ERROR "cpack failed:\n${_out}")
endif()

set(_deb_version "${VERSION}-1")
string(REGEX REPLACE "\\..*" "" _major "${VERSION}")
set(_runtime_package "libbackplane${_major}")
set(_same_runtime "${_runtime_package} (= ${_deb_version})")

# read_package(<package> [<folder> <version>]): fills <package>_FILE (the .deb),
# <package>_FILES (its paths, one per list entry, "./usr/..." with " -> target" for links) and
# <package>_DEPENDS. By default the SDK's package of this version in WORK.
function(read_package package)
  set(_folder "${WORK}")
  set(_version "${_deb_version}")
  if(ARGC GREATER 2)
    set(_folder "${ARGV1}")
    set(_version "${ARGV2}")
  endif()
  file(GLOB _debs "${_folder}/${package}_${_version}_*.deb")
  list(LENGTH _debs _n)
  if(NOT _n EQUAL 1)
    file(GLOB _all "${_folder}/*.deb")
    message(FATAL_ERROR "expected one ${package}_${_version}_*.deb, found: ${_all}")
  endif()
  execute_process(COMMAND "${DPKG_DEB}" -f "${_debs}" Package Version Depends
                  OUTPUT_VARIABLE _fields RESULT_VARIABLE _r1)
  execute_process(COMMAND "${DPKG_DEB}" -c "${_debs}" OUTPUT_VARIABLE _listing RESULT_VARIABLE _r2)
  if(NOT _r1 EQUAL 0 OR NOT _r2 EQUAL 0)
    message(FATAL_ERROR "dpkg-deb cannot read ${_debs}")
  endif()
  if(NOT _fields MATCHES "Package: ${package}\n" OR NOT _fields MATCHES "Version: ${_version}\n")
    message(FATAL_ERROR "${_debs}: unexpected control fields:\n${_fields}")
  endif()
  set(_depends "")
  if(_fields MATCHES "Depends: ([^\n]*)")
    set(_depends "${CMAKE_MATCH_1}")
  endif()
  string(REGEX REPLACE "\n$" "" _listing "${_listing}")
  string(REPLACE ";" "\\;" _listing "${_listing}")
  string(REPLACE "\n" ";" _lines "${_listing}")
  set(_files "")
  foreach(_line IN LISTS _lines)
    # "-rw-r--r-- root/root 1234 2026-01-01 00:00 ./usr/lib/x"  -> "./usr/lib/x"
    if(_line MATCHES "^[^ ]+ +[^ ]+ +[0-9]+ +[^ ]+ +[^ ]+ +(.*)$")
      list(APPEND _files "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  set(${package}_FILE "${_debs}" PARENT_SCOPE)
  set(${package}_FILES "${_files}" PARENT_SCOPE)
  set(${package}_DEPENDS "${_depends}" PARENT_SCOPE)
endfunction()

# Fails unless some path of `package` matches each regex of ARGN.
function(expect_files package)
  foreach(_regex IN LISTS ARGN)
    set(_hit OFF)
    foreach(_file IN LISTS ${package}_FILES)
      if(_file MATCHES "${_regex}")
        set(_hit ON)
        break()
      endif()
    endforeach()
    if(NOT _hit)
      string(REPLACE ";" "\n  " _listing "${${package}_FILES}")
      message(FATAL_ERROR "${package}: no file matches '${_regex}'. It holds:\n  ${_listing}")
    endif()
  endforeach()
endfunction()

# Fails when some path of `package` matches a regex of ARGN.
function(expect_no_files package)
  foreach(_regex IN LISTS ARGN)
    foreach(_file IN LISTS ${package}_FILES)
      if(_file MATCHES "${_regex}")
        message(FATAL_ERROR "${package} must not hold ${_file} (matches '${_regex}')")
      endif()
    endforeach()
  endforeach()
endfunction()

function(expect_depends package)
  foreach(_relation IN LISTS ARGN)
    string(FIND ", ${${package}_DEPENDS}, " ", ${_relation}, " _at)
    if(_at EQUAL -1)
      message(FATAL_ERROR "${package}: Depends '${${package}_DEPENDS}' lacks '${_relation}'")
    endif()
  endforeach()
endfunction()

find_program(READELF readelf)
find_program(GDB gdb)
# expect_debug_file(<elf> <debug folder>): fails unless <debug folder>/.build-id/<xx>/<rest>.debug
# exists, <xx><rest> being the GNU build id of <elf>: the file gdb loads for it.
function(expect_debug_file elf debug_dir)
  execute_process(COMMAND "${READELF}" -n "${elf}" OUTPUT_VARIABLE _notes RESULT_VARIABLE _r ERROR_QUIET)
  if(NOT _r EQUAL 0 OR NOT _notes MATCHES "Build ID: ([0-9a-f][0-9a-f])([0-9a-f]+)")
    message(FATAL_ERROR "${elf} has no GNU build id (readelf -n)")
  endif()
  set(_debug "${debug_dir}/.build-id/${CMAKE_MATCH_1}/${CMAKE_MATCH_2}.debug")
  if(NOT EXISTS "${_debug}")
    message(FATAL_ERROR "${elf}'s symbols are not where gdb looks for them: no ${_debug}")
  endif()
endfunction()
# expect_gdb_finds_symbols(<binary> <debug folder>): with gdb installed, fails unless gdb, its
# debug-file-directory set to <debug folder>, finds the line of <binary>'s main().
function(expect_gdb_finds_symbols binary debug_dir)
  if(NOT GDB)
    return()
  endif()
  execute_process(
    COMMAND "${GDB}" -batch -nx -iex "set debug-file-directory ${debug_dir}" -ex "info line main"
            "${binary}"
    OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
  if(NOT _out MATCHES "Line [0-9]+ of \"[^\"]*main\\.cpp\"")
    message(FATAL_ERROR "gdb finds no line table for ${binary} with debug-file-directory "
                        "${debug_dir}:\n${_out}")
  endif()
endfunction()

set(_lib "\\./usr/lib(/[a-z0-9_-]+-linux-gnu[a-z]*)?")

# ---- libbackplane<major>: the runtime --------------------------------------------------------
read_package(${_runtime_package})
expect_files(${_runtime_package}
  "^${_lib}/backplane/trusted-keys/backplane-build\\.json$"
  "^\\./usr/libexec/backplane/backplane-plugin-probe$"
  "^${_lib}/libbackplane\\.so\\.[0-9]+"
  "^${_lib}/libbackplane_sdk\\.so\\.[0-9]+")
expect_no_files(${_runtime_package}
  "^\\./usr/bin/" "^\\./usr/include/" "/cmake/" "/pkgconfig/" "\\.so$" "\\.so -> "
  "/backplane/backends/." "\\.debug$"
  "\\.key$")  # the build key's private half is never packaged
execute_process(COMMAND "${DPKG_DEB}" --info "${${_runtime_package}_FILE}" shlibs
                OUTPUT_VARIABLE _shlibs RESULT_VARIABLE _r)
if(NOT _r EQUAL 0 OR NOT _shlibs MATCHES "(^|\n)libbackplane ${_major} ${_runtime_package} \\(>= ${_deb_version}\\)")
  message(FATAL_ERROR "${_runtime_package}: DEBIAN/shlibs does not declare libbackplane ${_major}:\n${_shlibs}")
endif()

# ---- backplane-tools ---------------------------------------------------------------------------
read_package(backplane-tools)
expect_files(backplane-tools
  "^\\./usr/bin/sdk-info$"
  "^\\./usr/bin/sdk-run$"
  "^\\./usr/bin/sdk-plugin$"
  "^\\./usr/share/doc/backplane/LICENSE$"
  "^\\./usr/share/doc/backplane/NOTICE$"
  "^\\./usr/share/doc/backplane/docs/sdk-run\\.md$")
if(MAN_PAGES)
  expect_files(backplane-tools
    "^\\./usr/share/man/man1/sdk-info\\.1(\\.gz)?$"
    "^\\./usr/share/man/man1/sdk-run\\.1(\\.gz)?$"
    "^\\./usr/share/man/man1/sdk-plugin\\.1(\\.gz)?$")
endif()
expect_no_files(backplane-tools "/libbackplane" "^\\./usr/include/" "\\.debug$" "\\.key$")
expect_depends(backplane-tools "${_same_runtime}")

# ---- Every package: Debian's copyright and changelog -----------------------------------------
file(GLOB _all_debs "${WORK}/*.deb")
foreach(_deb IN LISTS _all_debs)
  get_filename_component(_name "${_deb}" NAME)
  string(REGEX REPLACE "_.*" "" _name "${_name}")
  read_package(${_name})
  expect_files(${_name}
    "^\\./usr/share/doc/${_name}/copyright$"
    "^\\./usr/share/doc/${_name}/changelog\\.Debian\\.gz$")
endforeach()

# ---- backplane-dbg: the symbols of the stripped binaries (Release builds) ---------------------
file(GLOB _debug_deb "${WORK}/backplane-dbg_${_deb_version}_*.deb")
if(STRIPPED)
  read_package(backplane-dbg)
  # One .debug file per stripped binary: the three libraries, the probe, the three tools and
  # each bundled backend, filed by build id in /usr/lib/debug whatever the libdir (lib/<multiarch>
  # for prefix /usr): gdb's debug-file-directory, and where Debian wants detached symbols.
  # ("gdb finds each packaged binary's symbols" below checks them binary by binary.)
  set(_debug_files "")
  foreach(_file IN LISTS backplane-dbg_FILES)
    if(_file MATCHES "^\\./usr/lib/debug/\\.build-id/[0-9a-f][0-9a-f]/[0-9a-f]+\\.debug$")
      list(APPEND _debug_files "${_file}")
    elseif(NOT _file MATCHES "/$" AND NOT _file MATCHES "^\\./usr/share/(doc|lintian/overrides)/backplane-dbg")
      message(FATAL_ERROR "backplane-dbg holds ${_file}, which is not a .debug file under .build-id")
    endif()
  endforeach()
  list(LENGTH _debug_files _debug_file_count)
  list(LENGTH BACKENDS _backend_count)
  math(EXPR _expected_debug_files "7 + ${_backend_count}")
  if(NOT _debug_file_count EQUAL _expected_debug_files)
    message(FATAL_ERROR "backplane-dbg holds ${_debug_file_count} .debug files, expected "
                        "${_expected_debug_files}:\n${_debug_files}")
  endif()
  expect_depends(backplane-dbg "${_same_runtime}")
  set(_debug_count 1)
else()
  list(LENGTH _debug_deb _debug_count)  # a sanitizer or Debug build: symbols stay in place
endif()

# The folder libbackplane searches by default: backplane/backends beside itself.
set(_sdk_libdir "")
foreach(_file IN LISTS ${_runtime_package}_FILES)
  if(_file MATCHES "^\\./usr/(.+)/libbackplane\\.so\\.[0-9.]+$")
    set(_sdk_libdir "${CMAKE_MATCH_1}")
  endif()
endforeach()
if(NOT _sdk_libdir)
  message(FATAL_ERROR "${_runtime_package} holds no ./usr/<libdir>/libbackplane.so.<version>")
endif()
set(_backend_folder "\\./usr/${_sdk_libdir}/backplane/backends")

# ---- backplane-dev -----------------------------------------------------------------------------
read_package(backplane-dev)
expect_files(backplane-dev
  "^\\./usr/include/backplane/runtime\\.hpp$"
  "^\\./usr/include/backplane/plugin\\.hpp$"
  "^\\./usr/include/backplane/backend/backend\\.hpp$"
  "^\\./usr/share/backplane/backend_kit/op_schema\\.cpp$"
  "^${_lib}/cmake/Backplane/BackplaneConfig\\.cmake$"
  "^${_lib}/cmake/Backplane/BackplaneConfigVersion\\.cmake$"
  "^${_lib}/cmake/Backplane/BackplaneAddBackend\\.cmake$"
  "^${_lib}/cmake/Backplane/backend-manifest\\.schema\\.json$"
  "^${_lib}/pkgconfig/backplane\\.pc$"
  "^${_lib}/libbackplane\\.so -> ")
expect_no_files(backplane-dev "^\\./usr/bin/." "^[^>]*\\.so\\.[0-9.]+$" "/backplane/backends/.")
expect_depends(backplane-dev "${_same_runtime}")

# ---- backplane-backend-<id> --------------------------------------------------------------------
set(_backend_packages "")
foreach(_id IN LISTS BACKENDS)
  string(TOLOWER "backplane-backend-${_id}" _package)
  list(APPEND _backend_packages "${_package}")
  read_package(${_package})
  expect_files(${_package}
    "^${_backend_folder}/Backplane_${_id}_backend\\.so$"
    "^${_backend_folder}/Backplane_${_id}_backend\\.json$"
    "^${_backend_folder}/Backplane_${_id}_backend\\.json\\.sig$")
  expect_no_files(${_package} "^\\./usr/bin/." "^\\./usr/include/." "/libbackplane" "\\.key$")
  expect_depends(${_package} "${_same_runtime}" ${DEB_DEPENDS_${_id}})
endforeach()

# ---- gdb finds each packaged binary's symbols (Release builds) --------------------------------
# The packages unpacked into one root as dpkg installs them: every ELF file of the runtime, the
# tools and the backends has its .debug file in <root>/usr/lib/debug/.build-id, and gdb pointed
# there (as Debian's gdb is at /usr/lib/debug) reads sdk-info's line table.
if(STRIPPED)
  set(_root "${WORK}/installed-root")
  foreach(_package IN ITEMS ${_runtime_package} backplane-tools backplane-dbg ${_backend_packages})
    execute_process(COMMAND "${DPKG_DEB}" -x "${${_package}_FILE}" "${_root}" RESULT_VARIABLE _r)
    if(NOT _r EQUAL 0)
      message(FATAL_ERROR "dpkg-deb -x ${${_package}_FILE} failed")
    endif()
  endforeach()
  file(GLOB_RECURSE _elves LIST_DIRECTORIES false "${_root}/usr/bin/*" "${_root}/usr/libexec/*"
       "${_root}/usr/lib/*.so*")
  set(_checked_count 0)
  foreach(_elf IN LISTS _elves)
    if(NOT IS_SYMLINK "${_elf}" AND NOT _elf MATCHES "\\.debug$")
      expect_debug_file("${_elf}" "${_root}/usr/lib/debug")
      math(EXPR _checked_count "${_checked_count} + 1")
    endif()
  endforeach()
  if(NOT _checked_count EQUAL _expected_debug_files)
    message(FATAL_ERROR "found ${_checked_count} ELF files in the packages, expected "
                        "${_expected_debug_files}:\n${_elves}")
  endif()
  expect_gdb_finds_symbols("${_root}/usr/bin/sdk-info" "${_root}/usr/lib/debug")
endif()

list(LENGTH _all_debs _deb_count)
list(LENGTH BACKENDS _backend_count)
math(EXPR _expected_count "3 + ${_debug_count} + ${_backend_count}")
if(NOT _deb_count EQUAL _expected_count)
  message(FATAL_ERROR "expected ${_expected_count} DEB packages, found: ${_all_debs}")
endif()

# ---- A third-party backend's DEB lands where the SDK's runtime searches -----------------------
# examples/backend built the way its README says, against the SDK as its runtime and
# backplane-dev DEBs lay it out (unpacked here, not installed), then `cpack -G DEB`. The author's
# project gets the other usual GNUInstallDirs libdir than the SDK's (GNUInstallDirs picks
# lib/<multiarch> for prefix /usr on Debian, lib for /usr/local), so this fails if
# backplane_add_backend() installs by the author's libdir instead of the SDK's backend folder.
set(_sdk_root "${WORK}/sdk-root")
foreach(_package IN ITEMS ${_runtime_package} backplane-dev)
  execute_process(COMMAND "${DPKG_DEB}" -x "${${_package}_FILE}" "${_sdk_root}" RESULT_VARIABLE _r)
  if(NOT _r EQUAL 0)
    message(FATAL_ERROR "dpkg-deb -x ${${_package}_FILE} failed")
  endif()
endforeach()
if(_sdk_libdir STREQUAL "lib")
  set(_author_prefix "/usr")
else()
  set(_author_prefix "/usr/local")
endif()
# Reports, after the example's CMakeLists.txt has run, what find_package(Backplane) set.
set(_report "${WORK}/report_backplane_dirs.cmake")
file(WRITE "${_report}" [=[
function(_report_backplane_dirs)
  message(STATUS "Backplane_BACKEND_DIR=${Backplane_BACKEND_DIR}")
  message(STATUS "Backplane_BACKEND_INSTALL_DIR=${Backplane_BACKEND_INSTALL_DIR}")
endfunction()
cmake_language(DEFER CALL _report_backplane_dirs)
]=])
# cache_value(BUILD NAME OUT): the value of cache entry NAME in BUILD's CMakeCache.txt.
function(cache_value build name out)
  file(STRINGS "${build}/CMakeCache.txt" _entry REGEX "^${name}:")
  string(REGEX REPLACE "^[^=]*=" "" _entry "${_entry}")
  set(${out} "${_entry}" PARENT_SCOPE)
endfunction()
set(_example_build "${WORK}/example-build")
execute_process(
  COMMAND "${CMAKE_COMMAND}" -S "${EXAMPLE_SOURCE}" -B "${_example_build}" -G "${GENERATOR}"
          -DCMAKE_BUILD_TYPE=Release "-DCMAKE_PREFIX_PATH=${_sdk_root}/usr"
          "-DCMAKE_INSTALL_PREFIX=${_author_prefix}" "-DCMAKE_PROJECT_INCLUDE=${_report}"
  RESULT_VARIABLE _result OUTPUT_VARIABLE _configure_out ERROR_VARIABLE _configure_out)
if(NOT _result EQUAL 0)
  message(FATAL_ERROR "configuring ${EXAMPLE_SOURCE} against the unpacked SDK DEBs failed:\n${_configure_out}")
endif()
cache_value("${_example_build}" CMAKE_INSTALL_LIBDIR _author_libdir)
if(_author_libdir STREQUAL _sdk_libdir)
  message(FATAL_ERROR "the example's libdir (prefix ${_author_prefix}) is the SDK's ('${_sdk_libdir}'): "
                      "this check could not tell the SDK's backend folder from the author's libdir")
endif()
set(_expected_dir "${_sdk_libdir}/backplane/backends")
foreach(_line IN ITEMS "Backplane_BACKEND_INSTALL_DIR=${_expected_dir}"
                       "Backplane_BACKEND_DIR=${_sdk_root}/usr/${_expected_dir}")
  string(FIND "${_configure_out}" "-- ${_line}\n" _at)
  if(_at EQUAL -1)
    message(FATAL_ERROR "find_package(Backplane) from the unpacked backplane-dev DEB does not set "
                        "${_line}:\n${_configure_out}")
  endif()
endforeach()
find_program(PKG_CONFIG pkg-config)
if(PKG_CONFIG)
  execute_process(
    COMMAND "${CMAKE_COMMAND}" -E env "PKG_CONFIG_PATH=${_sdk_root}/usr/${_sdk_libdir}/pkgconfig"
            "${PKG_CONFIG}" --variable=backenddir backplane
    RESULT_VARIABLE _result OUTPUT_VARIABLE _pc_dir ERROR_VARIABLE _pc_dir
    OUTPUT_STRIP_TRAILING_WHITESPACE)
  cmake_path(SET _pc_dir NORMALIZE "${_pc_dir}")
  if(NOT _result EQUAL 0 OR NOT _pc_dir STREQUAL "${_sdk_root}/usr/${_expected_dir}")
    message(FATAL_ERROR "pkg-config --variable=backenddir backplane of the unpacked backplane-dev "
                        "DEB gives '${_pc_dir}', not ${_sdk_root}/usr/${_expected_dir}")
  endif()
endif()
# The plugin alone: the DEB holds nothing else (the example's check program is
# "packaging: the example backend builds against the installed SDK"'s business).
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${_example_build}" --target example_backend
                RESULT_VARIABLE _result OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
if(NOT _result EQUAL 0)
  message(FATAL_ERROR "building the example backend failed:\n${_out}")
endif()
set(_example_debs "${WORK}/example-debs")
execute_process(
  COMMAND "${CMAKE_CPACK_COMMAND}" -G DEB --config "${_example_build}/CPackConfig.cmake"
          -B "${_example_debs}"
  RESULT_VARIABLE _result OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
if(NOT _result EQUAL 0)
  message(FATAL_ERROR "cpack -G DEB of the example backend failed:\n${_out}")
endif()
cache_value("${_example_build}" CMAKE_PROJECT_VERSION _example_version)
read_package(example-backend-cpuexample "${_example_debs}" "${_example_version}")
foreach(_file IN LISTS example-backend-cpuexample_FILES)
  if(NOT _file MATCHES "/$" AND NOT _file MATCHES "^${_backend_folder}/[^/]+$")
    message(FATAL_ERROR "example-backend-cpuexample holds ${_file}, outside /usr/${_expected_dir}, "
                        "the folder the SDK's DEB's libbackplane searches (its own libdir "
                        "${_sdk_libdir}, the author's ${_author_libdir})")
  endif()
endforeach()
expect_files(example-backend-cpuexample
  "^${_backend_folder}/Example_CpuExample_backend\\.so$"
  "^${_backend_folder}/Example_CpuExample_backend\\.json$")
expect_depends(example-backend-cpuexample "${_runtime_package} (>= ${VERSION})")

# ---- The runtime's and the tools' Depends cover what their files load (ldd + dpkg -S) --------
# Direct dependencies only (DT_NEEDED, read with readelf): what those load in turn is their
# own packages' business. The Depends come from dpkg-shlibdeps; this checks its result.
find_program(LDD ldd)
find_program(DPKG_QUERY dpkg-query)
foreach(_checked IN ITEMS ${_runtime_package} backplane-tools)
if(LDD AND READELF AND DPKG_QUERY)
  set(_unpacked "${WORK}/files-${_checked}")
  execute_process(COMMAND "${DPKG_DEB}" -x "${${_checked}_FILE}" "${_unpacked}")
  file(GLOB_RECURSE _elves "${_unpacked}/usr/bin/*" "${_unpacked}/usr/libexec/*" "${_unpacked}/usr/lib/*.so.*")
  set(_needed "")
  foreach(_elf IN LISTS _elves)
    if(IS_SYMLINK "${_elf}")
      continue()
    endif()
    execute_process(COMMAND "${READELF}" -d "${_elf}" OUTPUT_VARIABLE _dynamic ERROR_QUIET)
    # A library's run path finds only its siblings ($ORIGIN), never the tools' ../lib.
    if(_elf MATCHES "\\.so[.0-9]*$" AND _dynamic MATCHES "R(UN)?PATH[^[]*\\[([^]]*)\\]"
       AND NOT CMAKE_MATCH_2 STREQUAL "$ORIGIN")
      message(FATAL_ERROR "${_elf} (${_checked}) has the run path '${CMAKE_MATCH_2}'")
    endif()
    # Stripped, with the symbols in backplane-dbg.
    execute_process(COMMAND "${READELF}" -S "${_elf}" OUTPUT_VARIABLE _sections ERROR_QUIET)
    if(STRIPPED AND (_sections MATCHES "\\.symtab" OR NOT _sections MATCHES "\\.gnu_debuglink"))
      message(FATAL_ERROR "${_elf} (${_checked}) is not stripped with a debug link")
    endif()
    execute_process(COMMAND "${LDD}" "${_elf}" OUTPUT_VARIABLE _ldd ERROR_QUIET)
    string(REGEX MATCHALL "\\(NEEDED\\)[^[]*\\[[^]]+\\]" _entries "${_dynamic}")
    foreach(_entry IN LISTS _entries)
      string(REGEX REPLACE ".*\\[([^]]+)\\]$" "\\1" _name "${_entry}")
      if(_name MATCHES "^libbackplane")
        continue()  # ours, from the same package
      endif()
      string(REGEX REPLACE "([.+])" "\\\\\\1" _quoted "${_name}")
      # "libx.so.1 => /path/libx.so.1 (0x...)", or "/lib64/ld-linux-x86-64.so.2 (0x...)" for
      # the dynamic loader itself.
      if(_ldd MATCHES "${_quoted} => (/[^ ]+) " OR _ldd MATCHES "(/[^ \t\n]*/${_quoted}) \\(")
        list(APPEND _needed "${CMAKE_MATCH_1}")
      else()
        message(FATAL_ERROR "${_elf} needs ${_name}, which the loader does not find:\n${_ldd}")
      endif()
    endforeach()
  endforeach()
  list(REMOVE_DUPLICATES _needed)
  foreach(_path IN LISTS _needed)
    # Debian 12 has a merged /usr: dpkg knows a library under one of its two spellings.
    set(_candidates "${_path}")
    if(_path MATCHES "^/usr(/.*)$")
      list(APPEND _candidates "${CMAKE_MATCH_1}")
    else()
      list(APPEND _candidates "/usr${_path}")
    endif()
    file(REAL_PATH "${_path}" _real)
    list(APPEND _candidates "${_real}")
    set(_owner "")
    foreach(_candidate IN LISTS _candidates)
      execute_process(COMMAND "${DPKG_QUERY}" -S "${_candidate}"
                      OUTPUT_VARIABLE _owner_line ERROR_QUIET RESULT_VARIABLE _r)
      if(_r EQUAL 0 AND _owner_line MATCHES "^([^:,]+)[:,]")
        set(_owner "${CMAKE_MATCH_1}")
        break()
      endif()
    endforeach()
    if(NOT _owner)
      message(WARNING "no Debian package owns ${_path}; not checked")
      continue()
    endif()
    string(FIND ", ${${_checked}_DEPENDS}," ", ${_owner}" _at)
    if(_at EQUAL -1)
      message(FATAL_ERROR "${_checked} loads ${_path} from package ${_owner}, which its "
                          "Depends ('${${_checked}_DEPENDS}') does not name (dpkg-shlibdeps)")
    endif()
  endforeach()
endif()
endforeach()

# ---- TGZ: one relocatable tree -----------------------------------------------------------------
file(GLOB _tgz "${WORK}/backplane-${VERSION}-*.tar.gz")
list(LENGTH _tgz _n)
if(NOT _n EQUAL 1)
  message(FATAL_ERROR "expected one backplane-${VERSION}-*.tar.gz in ${WORK}, found: ${_tgz}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -E tar tzf "${_tgz}" OUTPUT_VARIABLE _tar_listing)
foreach(_regex IN ITEMS "/bin/sdk-info\n" "/libexec/backplane/backplane-plugin-probe\n"
                        "/lib[^\n]*/libbackplane\\.so\\.[0-9]"
                        "/include/backplane/runtime\\.hpp\n"
                        "/lib[^\n]*/backplane/backends/Backplane_CpuRef_backend\\.json\n")
  if(NOT _tar_listing MATCHES "${_regex}")
    message(FATAL_ERROR "${_tgz} holds nothing matching '${_regex}':\n${_tar_listing}")
  endif()
endforeach()
# CPack rewrote each manifest against the packaged library and signed it again: unpacked, the
# tree's own sdk-info verifies every bundled backend under policy require, with the build key
# the tree carries (no user's or machine's keys: HOME and XDG_CONFIG_HOME point into WORK).
set(_unpacked_tgz "${WORK}/tgz")
file(MAKE_DIRECTORY "${_unpacked_tgz}")
execute_process(COMMAND "${CMAKE_COMMAND}" -E tar xzf "${_tgz}" WORKING_DIRECTORY "${_unpacked_tgz}"
                RESULT_VARIABLE _result)
file(GLOB _tgz_sdk_info "${_unpacked_tgz}/*/bin/sdk-info")
if(NOT _result EQUAL 0 OR NOT _tgz_sdk_info)
  message(FATAL_ERROR "unpacking ${_tgz} into ${_unpacked_tgz} gave no bin/sdk-info")
endif()
# Its symbols in <tree>/lib/debug, where gdb finds them once told (docs/installing.md).
if(STRIPPED)
  get_filename_component(_tgz_tree "${_tgz_sdk_info}/../.." ABSOLUTE)
  expect_debug_file("${_tgz_sdk_info}" "${_tgz_tree}/lib/debug")
  expect_gdb_finds_symbols("${_tgz_sdk_info}" "${_tgz_tree}/lib/debug")
endif()
execute_process(
  COMMAND "${CMAKE_COMMAND}" -E env --unset=BACKPLANE_BACKEND_PATHS --unset=BACKPLANE_ADD_BACKEND_PATHS
          BACKPLANE_TRUST_POLICY=require "HOME=${WORK}/home" "XDG_CONFIG_HOME=${WORK}/home/config"
          "XDG_DATA_HOME=${WORK}/home/data" "${_tgz_sdk_info}" --json
  RESULT_VARIABLE _exit OUTPUT_VARIABLE _json ERROR_VARIABLE _err)
if(NOT _exit EQUAL 0 AND NOT _exit EQUAL 1)
  message(FATAL_ERROR "${_tgz_sdk_info} --json exited ${_exit}:\n${_json}\n${_err}")
endif()
foreach(_id IN LISTS BACKENDS)
  set(_verified OFF)
  string(JSON _count LENGTH "${_json}" backends)
  math(EXPR _last "${_count} - 1")
  foreach(_i RANGE ${_last})
    string(JSON _backend_id GET "${_json}" backends ${_i} id)
    string(JSON _status GET "${_json}" backends ${_i} signature status)
    if(_backend_id STREQUAL _id AND _status STREQUAL "verified")
      set(_verified ON)
    endif()
  endforeach()
  if(NOT _verified)
    message(FATAL_ERROR "the unpacked TGZ's sdk-info does not register ${_id} with a verified "
                        "signature under policy require:\n${_json}")
  endif()
endforeach()

# ---- dpkg -i, sdk-info, dpkg -r (root only) ---------------------------------------------------
find_program(DPKG dpkg)
execute_process(COMMAND id -u OUTPUT_VARIABLE _uid OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT DPKG OR NOT _uid STREQUAL "0")
  message(STATUS "packages checked; dpkg -i not tried (needs root and dpkg)")
  return()
endif()
if("$ENV{BACKPLANE_TEST_DPKG_INSTALL}" STREQUAL "0")
  message(STATUS "packages checked; dpkg -i not tried (BACKPLANE_TEST_DPKG_INSTALL=0)")
  return()
endif()
execute_process(COMMAND "${DPKG_QUERY}" -W -f "\${db:Status-Status} \${Package}\n" "backplane-*"
                        "libbackplane*" example-backend-cpuexample
                OUTPUT_VARIABLE _present ERROR_QUIET)
if(_present MATCHES "(^|\n)(installed|unpacked|half-[a-z]+) (backplane-|libbackplane|example-backend-)")
  message(STATUS "packages checked; dpkg -i not tried: backplane packages are installed already "
                 "and this test leaves them alone:\n${_present}")
  return()
endif()

set(_install_debs "${${_runtime_package}_FILE}" "${backplane-tools_FILE}"
                  "${example-backend-cpuexample_FILE}")
foreach(_package IN LISTS _backend_packages)
  list(APPEND _install_debs "${${_package}_FILE}")
endforeach()
execute_process(COMMAND "${DPKG}" -i ${_install_debs}
                RESULT_VARIABLE _install_result OUTPUT_VARIABLE _install_out ERROR_VARIABLE _install_out)
set(_failure "")
if(NOT _install_result EQUAL 0)
  set(_failure "dpkg -i failed:\n${_install_out}")
else()
  set(ENV{BACKPLANE_BACKEND_PATHS} "")
  execute_process(COMMAND /usr/bin/sdk-info --json --no-static
                  RESULT_VARIABLE _exit OUTPUT_VARIABLE _json ERROR_VARIABLE _err)
  execute_process(COMMAND /usr/bin/sdk-info --no-static OUTPUT_VARIABLE _text ERROR_QUIET)
  # 0, or 1 when some candidate is rejected (e.g. an OpenCL backend on a machine whose ICD
  # cannot be used); every packaged backend must be registered either way.
  if(NOT _exit EQUAL 0 AND NOT _exit EQUAL 1)
    set(_failure "/usr/bin/sdk-info exited ${_exit}:\n${_json}\n${_err}")
  else()
    string(JSON _backends GET "${_json}" backends)
    foreach(_id IN LISTS BACKENDS ITEMS CpuExample)
      if(NOT _backends MATCHES "\"id\" *: *\"${_id}\"" OR NOT _text MATCHES "${_id}")
        set(_failure "/usr/bin/sdk-info does not list ${_id}:\n${_text}")
      endif()
    endforeach()
    foreach(_stem IN ITEMS Backplane_CpuRef Example_CpuExample)
      if(NOT _json MATCHES "\"library_path\": \"/usr/${_sdk_libdir}/backplane/backends/${_stem}_backend\\.so\"")
        set(_failure "${_stem}_backend is not loaded from /usr/${_sdk_libdir}/backplane/backends:\n${_json}")
      endif()
    endforeach()
    # The bundled backends' signatures (made by CPack) verify with the runtime package's key.
    if(NOT _json MATCHES "\"signature\": {[^}]*\"status\": \"verified\",[^}]*\"publisher\": \"Backplane \\(build key\\)\"[^}]*\"signature_path\": \"/usr/${_sdk_libdir}/backplane/backends/Backplane_CpuRef_backend\\.json\\.sig\"")
      set(_failure "/usr/bin/sdk-info does not report CpuRef's signature verified by the build key:\n${_json}")
    endif()
  endif()
endif()
# Always remove what this test installed.
execute_process(COMMAND "${DPKG}" -r example-backend-cpuexample ${_backend_packages} backplane-tools
                        ${_runtime_package}
                RESULT_VARIABLE _remove_result OUTPUT_VARIABLE _remove_out ERROR_VARIABLE _remove_out)
if(_failure)
  message(FATAL_ERROR "${_failure}")
endif()
if(NOT _remove_result EQUAL 0)
  message(FATAL_ERROR "dpkg -r failed:\n${_remove_out}")
endif()
file(REMOVE_RECURSE "${WORK}")
message(STATUS "installed with dpkg -i, sdk-info listed ${BACKENDS} and CpuExample from "
               "/usr/${_sdk_libdir}/backplane/backends, removed with dpkg -r")
