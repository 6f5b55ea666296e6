// A built test plugin variant (tests/plugins): where its library is and what it calls itself.
// The generated header test_plugins.hpp defines one constant of this type per variant, e.g.
// test_plugins::valid_a.
#pragma once

namespace backplane::unit {

// Identity values every test plugin is built with (tests/plugins/test_plugin_exports.cpp), unless
// its variant sets another version.
inline constexpr const char* kTestPluginVendor = "Test";
inline constexpr const char* kTestPluginVersion = "1.0.0";

struct TestPlugin {
  const char* variant;  // "valid_a", "api_major", ...
  const char* path;     // absolute path of the built MODULE library
  const char* id;       // the id token it was built with (TEST_BACKEND_ID)
  const char* version = kTestPluginVersion;  // its plugin version (TEST_PLUGIN_VERSION)
  const char* api_version = nullptr;         // the Backend API it was built for ("2.0"); null: this build's
};

}  // namespace backplane::unit
