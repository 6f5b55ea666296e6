// Configure-time probe (BackplaneAddBackend.cmake, try_run): prints the tags that plugin.hpp
// compiles into every plugin's identity descriptor, so the manifests the build writes carry
// exactly the values the runtime will compare against. Compiled with the same compiler and
// flags as the plugins; needs only the SDK headers, links nothing of Backplane.
#include <backplane/plugin.hpp>

#include <cstdio>

int main() {
  std::printf("platform=%s\n", BACKPLANE_PLATFORM_TAG);
  std::printf("abi=%s\n", BACKPLANE_ABI_TAG);
  std::printf("api_version=%u.%u\n", static_cast<unsigned>(backplane::kBackendApiVersion.major),
              static_cast<unsigned>(backplane::kBackendApiVersion.minor));
  return 0;
}
