# Signs one backend manifest with sdk-plugin: writes <manifest>.sig beside it, a detached Ed25519
# signature over the manifest's exact bytes (which hold the library's sha256, so it covers the
# library too; docs/backend-discovery.md §8).
#
#   cmake -DSDK_PLUGIN=<sdk-plugin executable, or ""> -DMANIFEST=<manifest .json>
#         -DKEY=<PEM private key> [-DPUBLISHER=<name the signature claims>]
#         [-DEMULATOR=<program that runs SDK_PLUGIN: a cross build's CMAKE_CROSSCOMPILING_EMULATOR>]
#         -P sign_manifest.cmake
#
# backplane_add_backend() runs it after each link of a plugin, once the manifest is written, and
# at install time, once the installed manifest is rewritten against the installed library.
# PUBLISHER "" lets the signature claim the manifest's vendor. SDK_PLUGIN "" (the SDK's own build
# without its tools) signs nothing and removes a <manifest>.sig left by an earlier build, which
# would no longer match. Fails with sdk-plugin's message, naming the manifest and the key.
cmake_minimum_required(VERSION 3.16)

if(NOT DEFINED MANIFEST OR "${MANIFEST}" STREQUAL "")
  message(FATAL_ERROR "sign_manifest: -DMANIFEST=... is required")
endif()
set(_signature "${MANIFEST}.sig")

if("${SDK_PLUGIN}" STREQUAL "")
  if(EXISTS "${_signature}")
    file(REMOVE "${_signature}")
  endif()
  return()
endif()

if(NOT DEFINED KEY OR "${KEY}" STREQUAL "")
  message(FATAL_ERROR "sign_manifest: -DKEY=... is required to sign '${MANIFEST}'")
endif()
if(NOT EXISTS "${KEY}")
  message(FATAL_ERROR "sign_manifest: the private key '${KEY}' to sign '${MANIFEST}' with does not exist")
endif()
set(_arguments sign "${MANIFEST}" --key "${KEY}")
if(NOT "${PUBLISHER}" STREQUAL "")
  list(APPEND _arguments --publisher "${PUBLISHER}")
endif()
execute_process(COMMAND ${EMULATOR} "${SDK_PLUGIN}" ${_arguments}
                RESULT_VARIABLE _result OUTPUT_VARIABLE _output ERROR_VARIABLE _output)
if(NOT _result EQUAL 0)
  message(FATAL_ERROR "sign_manifest: signing '${MANIFEST}' with '${KEY}' failed "
                      "(${SDK_PLUGIN} sign exited ${_result}):\n${_output}")
endif()
if(NOT EXISTS "${_signature}")
  message(FATAL_ERROR "sign_manifest: ${SDK_PLUGIN} sign '${MANIFEST}' wrote no '${_signature}'")
endif()
