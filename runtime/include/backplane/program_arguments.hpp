// A program's command-line arguments as UTF-8, the text every Backplane string is (paths
// included, backplane/path_text.hpp). On Windows, main's argv holds the arguments in the ANSI
// code page, which cannot spell every file name; ProgramArguments reads them again as UTF-16 and
// converts them. The tools and the plugin probe construct one first thing in main.
#pragma once

#include <backplane/runtime_export.hpp>

#include <string>
#include <vector>

namespace backplane {

// The arguments of this process as UTF-8, argv[0] first: on Windows from the process's UTF-16
// command line (GetCommandLineW, split as CommandLineToArgvW splits it, which is how the C
// runtime makes argv), or `argv` as given when that fails or gives another count; elsewhere
// `argv` as given (a POSIX argument is bytes, passed on unchanged). `argv` holds `argc` pointers.
// Thread-safe; throws only std::bad_alloc.
BACKPLANE_RUNTIME_API std::vector<std::string> Utf8ProgramArguments(int argc, const char* const argv[]);

// Utf8ProgramArguments in the shape main's callers take: argc() and argv(), the latter valid as
// long as this object (not copyable, so argv() cannot dangle). Construct it in main:
//   const backplane::ProgramArguments arguments(argc, argv);
//   return Run(arguments.argc(), arguments.argv());
class ProgramArguments {
 public:
  ProgramArguments(int argc, const char* const argv[]) : values_(Utf8ProgramArguments(argc, argv)) {
    pointers_.reserve(values_.size() + 1);
    for (const std::string& value : values_) pointers_.push_back(value.c_str());
    pointers_.push_back(nullptr);  // as argv[argc]
  }
  ProgramArguments(const ProgramArguments&) = delete;
  ProgramArguments& operator=(const ProgramArguments&) = delete;

  int argc() const { return static_cast<int>(values_.size()); }
  // argc() UTF-8 strings, then a null pointer.
  const char* const* argv() const { return pointers_.data(); }

 private:
  std::vector<std::string> values_;
  std::vector<const char*> pointers_;
};

}  // namespace backplane
