# ctest "packaging: marketplace drop: ...": the story of a signed third-party backend, with the
# tools of the fixture's install prefix only, as a vendor and a user would run them. With
# XDG_DATA_HOME and XDG_CONFIG_HOME (and HOME) in a scratch folder:
#   1. the installed SDK holds the build key's public half in <libdir>/backplane/trusted-keys,
#      a .sig beside every bundled manifest, and no private key;
#   2. the vendor makes a key (`sdk-plugin keygen`) and builds examples/backend against the
#      installed SDK at version A with SIGN_KEY; the user trusts the vendor's public key
#      (`sdk-plugin keys add --user`); the build's `cmake --install` output verifies (its manifest
#      was re-signed after being rewritten); the user installs the drop (`sdk-plugin install
#      --user --policy require`);
#   3. under BACKPLANE_TRUST_POLICY=require, `sdk-info --json` registers CpuExample A from the
#      user's drop folder, signature verified with the vendor's publisher and key id, and every
#      bundled backend verified with the build key's publisher; `sdk-run` runs MODEL with
#      layers on CpuExample;
#   4. version B (higher) is built, signed and installed: B registered, A superseded;
#   5. `sdk-plugin remove CpuExample --version B`: A registered again;
#   6. with the vendor's key no longer trusted (`sdk-plugin keys remove`), under require: `sdk-plugin install --policy
#      require` refuses the drop, and discovery rejects the installed A with publisher_untrusted
#      while the bundled backends, signed by the build key, still register.
#
#   cmake -DPREFIX=<installed prefix> -DSOURCE=<examples/backend> -DWORK=<scratch folder>
#         -DGENERATOR=<generator> -DMODEL=<onnx model with a Relu> -DBACKENDS=<id,id...>
#         -DBUILD_KEY_PUBLISHER=<the build key's publisher> -DKEYS_SUBDIR=<trusted-keys folder
#         relative to the prefix> -P marketplace_drop_test.cmake
foreach(_name IN ITEMS PREFIX SOURCE WORK GENERATOR MODEL BACKENDS BUILD_KEY_PUBLISHER KEYS_SUBDIR)
  if(NOT DEFINED ${_name})
    message(FATAL_ERROR "${_name} is not set")
  endif()
endforeach()
string(REPLACE "," ";" BACKENDS "${BACKENDS}")
foreach(_tool IN ITEMS sdk-info sdk-run sdk-plugin)
  if(NOT EXISTS "${PREFIX}/bin/${_tool}")
    message(FATAL_ERROR "no ${PREFIX}/bin/${_tool} (the install fixture did not run, or the tool is not installed)")
  endif()
endforeach()
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")

# Only this scratch home: nothing of the machine's user, no search or trust settings of the
# environment the test runs in.
set(ENV{HOME} "${WORK}/home")
set(ENV{XDG_DATA_HOME} "${WORK}/home/data")
set(ENV{XDG_CONFIG_HOME} "${WORK}/home/config")
foreach(_variable IN ITEMS BACKPLANE_BACKEND_PATHS BACKPLANE_ADD_BACKEND_PATHS BACKPLANE_BACKENDS_SELECT
                           BACKPLANE_BACKENDS_DISABLE BACKPLANE_TRUST_POLICY BACKPLANE_LOG)
  unset(ENV{${_variable}})
endforeach()
set(_user_drops "${WORK}/home/data/backplane/backends")
set(_user_keys "${WORK}/home/config/backplane/trusted-keys")
set(_stem "Example_CpuExample_backend")
set(_version_a "1.0.0")
set(_version_b "1.1.0")
set(_vendor_publisher "Example Vendor (marketplace test)")

# run(<what> <output variable> COMMAND <command>...): runs the command, fails naming <what> with
# its output unless it exits 0.
function(run what out)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "" "COMMAND")
  execute_process(COMMAND ${arg_COMMAND} RESULT_VARIABLE _result OUTPUT_VARIABLE _output ERROR_VARIABLE _output)
  if(NOT _result EQUAL 0)
    list(JOIN arg_COMMAND " " _command)
    message(FATAL_ERROR "${what} failed (exit ${_result}): ${_command}\n${_output}")
  endif()
  set(${out} "${_output}" PARENT_SCOPE)
endfunction()

# sdk_info(<policy> <json variable>): the installed sdk-info's --json report under that policy.
# Exit 0 or 1 (some candidate rejected) are both reports; anything else fails.
function(sdk_info policy out)
  execute_process(COMMAND "${CMAKE_COMMAND}" -E env "BACKPLANE_TRUST_POLICY=${policy}"
                          "${PREFIX}/bin/sdk-info" --json
                  RESULT_VARIABLE _exit OUTPUT_VARIABLE _json ERROR_VARIABLE _err)
  if(NOT _exit EQUAL 0 AND NOT _exit EQUAL 1)
    message(FATAL_ERROR "sdk-info --json (policy ${policy}) exited ${_exit}:\n${_json}\n${_err}")
  endif()
  string(JSON _policy ERROR_VARIABLE _error GET "${_json}" trust policy)
  if(_error OR NOT _policy STREQUAL policy)
    message(FATAL_ERROR "sdk-info --json does not report trust policy '${policy}' (${_error}):\n${_json}")
  endif()
  set(${out} "${_json}" PARENT_SCOPE)
endfunction()

# backend_index(<json> <id> <out>): the index of backend <id> in the report's "backends", or -1.
function(backend_index json id out)
  set(_index -1)
  string(JSON _count LENGTH "${json}" backends)
  if(_count GREATER 0)
    math(EXPR _last "${_count} - 1")
    foreach(_i RANGE ${_last})
      string(JSON _id GET "${json}" backends ${_i} id)
      if(_id STREQUAL id)
        set(_index ${_i})
      endif()
    endforeach()
  endif()
  set(${out} ${_index} PARENT_SCOPE)
endfunction()

# expect_registered(<json> <id> <version> <publisher> <key id or ""> <what>): backend <id> is
# registered at <version> ("" for any) with a verified signature by <publisher> (and key).
function(expect_registered json id version publisher key_id what)
  backend_index("${json}" "${id}" _i)
  if(_i EQUAL -1)
    message(FATAL_ERROR "${what}: ${id} is not registered:\n${json}")
  endif()
  string(JSON _version GET "${json}" backends ${_i} version)
  string(JSON _status GET "${json}" backends ${_i} signature status)
  string(JSON _publisher GET "${json}" backends ${_i} signature publisher)
  string(JSON _key_id GET "${json}" backends ${_i} signature key_id)
  if(version AND NOT _version STREQUAL version)
    message(FATAL_ERROR "${what}: ${id} is registered at version ${_version}, not ${version}:\n${json}")
  endif()
  if(NOT _status STREQUAL "verified" OR NOT _publisher STREQUAL publisher
     OR (key_id AND NOT _key_id STREQUAL key_id))
    message(FATAL_ERROR "${what}: ${id}'s signature is '${_status}' by '${_publisher}' (key "
                        "'${_key_id}'), not verified by '${publisher}' (key '${key_id}'):\n${json}")
  endif()
endfunction()

# record_of(<json> <id> <version> <verdict out> <code out>): the verdict and code of the record of
# <id> at <version>; "" when there is none (fails when there are several).
function(record_of json id version verdict_out code_out)
  set(_verdict "")
  set(_code "")
  string(JSON _count LENGTH "${json}" records)
  math(EXPR _last "${_count} - 1")
  foreach(_i RANGE ${_last})
    string(JSON _id GET "${json}" records ${_i} backend_id)
    string(JSON _version GET "${json}" records ${_i} version)
    if(_id STREQUAL id AND _version STREQUAL version)
      if(_verdict)
        message(FATAL_ERROR "two discovery records of ${id} ${version}:\n${json}")
      endif()
      string(JSON _verdict GET "${json}" records ${_i} verdict)
      string(JSON _code GET "${json}" records ${_i} code)
    endif()
  endforeach()
  set(${verdict_out} "${_verdict}" PARENT_SCOPE)
  set(${code_out} "${_code}" PARENT_SCOPE)
endfunction()

# expect_bundled_verified(<json> <what>): every bundled backend registered, signed by the build key.
function(expect_bundled_verified json what)
  foreach(_id IN LISTS BACKENDS)
    expect_registered("${json}" "${_id}" "" "${BUILD_KEY_PUBLISHER}" "" "${what} (bundled)")
  endforeach()
endfunction()

# ---- 1. The installed SDK: the build key's public half, signed manifests, no private key ------
set(_build_key "${PREFIX}/${KEYS_SUBDIR}/backplane-build.json")
if(NOT EXISTS "${_build_key}")
  message(FATAL_ERROR "the install has no ${_build_key} (the build key's trusted-key file)")
endif()
file(READ "${_build_key}" _build_key_text)
string(JSON _build_key_publisher GET "${_build_key_text}" publisher)
if(NOT _build_key_publisher STREQUAL BUILD_KEY_PUBLISHER)
  message(FATAL_ERROR "${_build_key} names publisher '${_build_key_publisher}', not '${BUILD_KEY_PUBLISHER}'")
endif()
file(GLOB_RECURSE _private_keys "${PREFIX}/*.key" "${PREFIX}/*.pem")
if(_private_keys)
  message(FATAL_ERROR "the install holds private keys: ${_private_keys}")
endif()
file(GLOB_RECURSE _bundled_manifests "${PREFIX}/*/backplane/backends/Backplane_*_backend.json")
if(NOT _bundled_manifests)
  message(FATAL_ERROR "no bundled manifests under ${PREFIX}")
endif()
foreach(_manifest IN LISTS _bundled_manifests)
  if(NOT EXISTS "${_manifest}.sig")
    message(FATAL_ERROR "the installed ${_manifest} has no ${_manifest}.sig")
  endif()
endforeach()

# ---- 2. The vendor's key, version A built and signed, the key trusted, the drop installed ----
set(_vendor_key "${WORK}/vendor/example")
file(MAKE_DIRECTORY "${WORK}/vendor")
run("sdk-plugin keygen" _out COMMAND "${PREFIX}/bin/sdk-plugin" keygen --publisher "${_vendor_publisher}"
                                     --out "${_vendor_key}")
foreach(_file IN ITEMS "${_vendor_key}.key" "${_vendor_key}.pub.json")
  if(NOT EXISTS "${_file}")
    message(FATAL_ERROR "sdk-plugin keygen --out ${_vendor_key} wrote no ${_file}:\n${_out}")
  endif()
endforeach()
file(READ "${_vendor_key}.pub.json" _vendor_public)
string(JSON _vendor_key_id GET "${_vendor_public}" key_id)

# build_example(<version> <out folder variable>): examples/backend at <version>, signed with the
# vendor's key, built against the installed SDK; returns the folder with its plugin and manifest.
function(build_example version out)
  set(_build "${WORK}/example-${version}")
  run("configuring examples/backend ${version}" _out
      COMMAND "${CMAKE_COMMAND}" -S "${SOURCE}" -B "${_build}" -G "${GENERATOR}"
              -DCMAKE_BUILD_TYPE=Release "-DCMAKE_PREFIX_PATH=${PREFIX}"
              "-DEXAMPLE_BACKEND_VERSION=${version}" "-DEXAMPLE_SIGN_KEY=${_vendor_key}.key")
  run("building examples/backend ${version}" _out
      COMMAND "${CMAKE_COMMAND}" --build "${_build}" --target example_backend)
  file(GLOB_RECURSE _manifest "${_build}/*/${_stem}.json")
  list(LENGTH _manifest _n)
  if(NOT _n EQUAL 1)
    message(FATAL_ERROR "expected one ${_stem}.json under ${_build}, found: ${_manifest}")
  endif()
  if(NOT EXISTS "${_manifest}.sig")
    message(FATAL_ERROR "the build with SIGN_KEY wrote no ${_manifest}.sig:\n${_out}")
  endif()
  file(READ "${_manifest}" _text)
  string(JSON _version GET "${_text}" version)
  if(NOT _version STREQUAL version)
    message(FATAL_ERROR "${_manifest} says version ${_version}, not ${version}")
  endif()
  get_filename_component(_folder "${_manifest}" DIRECTORY)
  set(${out} "${_folder}" PARENT_SCOPE)
endfunction()

build_example(${_version_a} _drop_a)
run("sdk-plugin keys add --user" _out
    COMMAND "${PREFIX}/bin/sdk-plugin" keys add "${_vendor_key}.pub.json" --user)
file(GLOB _trusted_vendor_keys "${_user_keys}/*.json")
if(NOT _trusted_vendor_keys)
  message(FATAL_ERROR "sdk-plugin keys add --user put no key file into ${_user_keys}:\n${_out}")
endif()

# `cmake --install` of the vendor's build re-signs the manifest it rewrites against the installed
# library (whose RPATH install changed): that copy verifies too.
run("cmake --install of examples/backend ${_version_a}" _out
    COMMAND "${CMAKE_COMMAND}" --install "${WORK}/example-${_version_a}" --prefix "${WORK}/vendor-prefix")
file(GLOB_RECURSE _installed_manifest "${WORK}/vendor-prefix/*/${_stem}.json")
if(NOT _installed_manifest OR NOT EXISTS "${_installed_manifest}.sig")
  message(FATAL_ERROR "cmake --install put no signed ${_stem}.json into ${WORK}/vendor-prefix:\n${_out}")
endif()
get_filename_component(_installed_folder "${_installed_manifest}" DIRECTORY)
execute_process(COMMAND "${CMAKE_COMMAND}" -E env BACKPLANE_TRUST_POLICY=require
                        "${PREFIX}/bin/sdk-info" --path "${_installed_folder}" --json
                RESULT_VARIABLE _exit OUTPUT_VARIABLE _json ERROR_VARIABLE _err)
expect_registered("${_json}" CpuExample ${_version_a} "${_vendor_publisher}" "${_vendor_key_id}"
                  "examples/backend installed with cmake --install")
file(REMOVE_RECURSE "${WORK}/vendor-prefix")

run("sdk-plugin install (version ${_version_a})" _out
    COMMAND "${PREFIX}/bin/sdk-plugin" install "${_drop_a}" --user --policy require)
foreach(_file IN ITEMS "${_stem}.json" "${_stem}.json.sig" "${_stem}.so")
  if(NOT EXISTS "${_user_drops}/${_stem}-${_version_a}/${_file}")
    message(FATAL_ERROR "sdk-plugin install put no ${_file} into ${_user_drops}/${_stem}-${_version_a}:\n${_out}")
  endif()
endforeach()

# ---- 3. Verified under require; sdk-run runs on it ---------------------------------------------
sdk_info(require _json)
expect_registered("${_json}" CpuExample ${_version_a} "${_vendor_publisher}" "${_vendor_key_id}"
                  "the installed drop ${_version_a}")
backend_index("${_json}" CpuExample _i)
string(JSON _layer GET "${_json}" backends ${_i} layer)
if(NOT _layer STREQUAL "user")
  message(FATAL_ERROR "CpuExample is found in layer '${_layer}', not the user's drop folder:\n${_json}")
endif()
expect_bundled_verified("${_json}" "policy require")

execute_process(COMMAND "${CMAKE_COMMAND}" -E env BACKPLANE_TRUST_POLICY=require
                        "${PREFIX}/bin/sdk-run" --model "${MODEL}" --backends CpuExample,CpuRef
                        --iterations 1 --warmup 0 --json
                RESULT_VARIABLE _exit OUTPUT_VARIABLE _run ERROR_VARIABLE _err)
if(NOT _exit EQUAL 0)
  message(FATAL_ERROR "sdk-run --model ${MODEL} --backends CpuExample,CpuRef exited ${_exit}:\n${_run}\n${_err}")
endif()
string(JSON _on_example ERROR_VARIABLE _error GET "${_run}" layers_per_backend CpuExample)
if(_error OR NOT _on_example GREATER 0)
  message(FATAL_ERROR "sdk-run placed no layer of ${MODEL} on CpuExample:\n${_run}")
endif()

# ---- 4. Version B: an update wins, the older copy is superseded -------------------------------
build_example(${_version_b} _drop_b)
run("sdk-plugin install (version ${_version_b})" _out
    COMMAND "${PREFIX}/bin/sdk-plugin" install "${_drop_b}" --user --policy require)
if(NOT EXISTS "${_user_drops}/${_stem}-${_version_b}/${_stem}.json")
  message(FATAL_ERROR "sdk-plugin install put nothing into ${_user_drops}/${_stem}-${_version_b}:\n${_out}")
endif()
sdk_info(require _json)
expect_registered("${_json}" CpuExample ${_version_b} "${_vendor_publisher}" "${_vendor_key_id}"
                  "the update ${_version_b}")
record_of("${_json}" CpuExample ${_version_a} _verdict _code)
if(NOT _verdict STREQUAL "superseded" OR NOT _code STREQUAL "superseded")
  message(FATAL_ERROR "CpuExample ${_version_a} is '${_verdict}' (${_code}), not superseded:\n${_json}")
endif()

# ---- 5. Removing B brings A back -----------------------------------------------------------------
run("sdk-plugin remove CpuExample --version ${_version_b}" _out
    COMMAND "${PREFIX}/bin/sdk-plugin" remove CpuExample --version ${_version_b})
if(EXISTS "${_user_drops}/${_stem}-${_version_b}")
  message(FATAL_ERROR "sdk-plugin remove left ${_user_drops}/${_stem}-${_version_b}:\n${_out}")
endif()
sdk_info(require _json)
expect_registered("${_json}" CpuExample ${_version_a} "${_vendor_publisher}" "${_vendor_key_id}"
                  "after removing ${_version_b}")
record_of("${_json}" CpuExample ${_version_b} _verdict _code)
if(_verdict)
  message(FATAL_ERROR "sdk-info still sees CpuExample ${_version_b} (${_verdict}) after its removal:\n${_json}")
endif()

# ---- 6. The vendor's key not trusted: the drop is refused, the bundled backends stay -----------
run("sdk-plugin keys remove ${_vendor_key_id} --user" _out
    COMMAND "${PREFIX}/bin/sdk-plugin" keys remove "${_vendor_key_id}" --user)
foreach(_file IN LISTS _trusted_vendor_keys)
  if(EXISTS "${_file}")
    message(FATAL_ERROR "sdk-plugin keys remove ${_vendor_key_id} --user left ${_file}:\n${_out}")
  endif()
endforeach()
execute_process(COMMAND "${PREFIX}/bin/sdk-plugin" install "${_drop_b}" --user --policy require
                RESULT_VARIABLE _exit OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
if(_exit EQUAL 0 OR EXISTS "${_user_drops}/${_stem}-${_version_b}")
  message(FATAL_ERROR "sdk-plugin install --policy require installed a drop whose publisher is not "
                      "trusted (exit ${_exit}):\n${_out}")
endif()
if(NOT _out MATCHES "publisher_untrusted")
  message(FATAL_ERROR "sdk-plugin install refused the untrusted drop without saying why:\n${_out}")
endif()
sdk_info(require _json)
backend_index("${_json}" CpuExample _i)
if(NOT _i EQUAL -1)
  message(FATAL_ERROR "CpuExample registers under require although its publisher is not trusted:\n${_json}")
endif()
record_of("${_json}" CpuExample ${_version_a} _verdict _code)
if(NOT _verdict STREQUAL "rejected" OR NOT _code STREQUAL "publisher_untrusted")
  message(FATAL_ERROR "CpuExample ${_version_a} is '${_verdict}' (${_code}), not rejected with "
                      "publisher_untrusted:\n${_json}")
endif()
expect_bundled_verified("${_json}" "policy require, vendor key not trusted")

file(REMOVE_RECURSE "${WORK}")
list(JOIN BACKENDS ", " _bundled)
message(STATUS "CpuExample ${_version_a} and ${_version_b} signed, installed as user drops, verified "
               "(publisher '${_vendor_publisher}'), superseded and removed; refused with "
               "publisher_untrusted once its key was not trusted; ${_bundled} verified by the build key")
