// Test-only: checks on what a tool printed or wrote, shared by the tools' end-to-end suites.
#pragma once

#include "child_process.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace backplane::e2e {

// This platform's plugin library suffix, for the file names the suites give test plugins.
#if defined(_WIN32)
inline constexpr const char* kLibrarySuffix = ".dll";
#elif defined(__APPLE__)
inline constexpr const char* kLibrarySuffix = ".dylib";
#else
inline constexpr const char* kLibrarySuffix = ".so";
#endif

inline bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The tool's stdout as JSON; fails the test (showing stdout) when it does not parse.
inline nlohmann::json ParseJson(const ProcessResult& result) {
  INFO("stdout was:\n" << result.out);
  nlohmann::json document;
  REQUIRE_NOTHROW(document = nlohmann::json::parse(result.out));
  return document;
}

// The bytes of `path`; empty when it cannot be read.
inline std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void WriteFile(const std::filesystem::path& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary);
  out << content;
  REQUIRE(out.good());
}

}  // namespace backplane::e2e
