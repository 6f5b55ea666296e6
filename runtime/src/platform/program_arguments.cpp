// The definition of backplane/program_arguments.hpp's Utf8ProgramArguments.
#include <backplane/program_arguments.hpp>

#if defined(_WIN32)
#include "platform/windows_api.hpp"
#include "platform/windows_text.hpp"

#include <shellapi.h>  // CommandLineToArgvW

#include <memory>
#endif

namespace backplane {

#if defined(_WIN32)
namespace {

// Owns CommandLineToArgvW's array (one LocalAlloc block).
struct LocalFreeArray {
  void operator()(wchar_t** array) const { ::LocalFree(array); }
};

}  // namespace
#endif

std::vector<std::string> Utf8ProgramArguments(int argc, const char* const argv[]) {
  std::vector<std::string> arguments;
#if defined(_WIN32)
  int count = 0;
  const std::unique_ptr<wchar_t*, LocalFreeArray> wide(::CommandLineToArgvW(::GetCommandLineW(), &count));
  // Another count would mean the C runtime split the line otherwise: its argv is kept then.
  if (wide != nullptr && count == argc) {
    arguments.reserve(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) arguments.push_back(platform::Utf8FromWide(wide.get()[i]));
    return arguments;
  }
#endif
  arguments.reserve(argc > 0 ? static_cast<std::size_t>(argc) : 0);
  for (int i = 0; i < argc; ++i) arguments.emplace_back(argv[i]);
  return arguments;
}

}  // namespace backplane
