// Prints what the runtime takes from the environment: the trust policy and its source, the
// user's trusted-key folder, and the search layers. setuid_test.cmake runs it once as a plain
// program and once set-uid, where every variable must be ignored (secure getenv). POSIX only.
#include <backplane/runtime.hpp>
#include <backplane/trust.hpp>

#include <unistd.h>

#include <iostream>

// Sanitized builds: LeakSanitizer cannot stop the threads of a set-uid (undumpable) process, and
// such a process cannot read its own /proc/self/environ, where ASAN_OPTIONS would be read from;
// so leak checking is turned off here, in the program. Unused in other builds.
extern "C" __attribute__((visibility("default"), used)) const char* __asan_default_options() {
  return "detect_leaks=0";
}
extern "C" __attribute__((visibility("default"), used)) const char* __lsan_default_options() {
  return "detect_leaks=0";
}

int main() {
  using namespace backplane;
  std::cout << "set-uid=" << (::getuid() != ::geteuid() ? 1 : 0) << '\n';
  const TrustSettings trust = ResolveTrustSettings();
  std::cout << "trust policy=" << ToString(trust.policy) << " source=" << trust.policy_source << '\n';
  for (const TrustFolder& folder : trust.key_folders) {
    std::cout << "key folder " << folder.source << '=' << folder.path << '\n';
  }
  for (const SearchPath& path : ResolveBackendSearchPaths()) {
    std::cout << "layer " << path.source << '=' << path.path << '\n';
  }
  return 0;
}
