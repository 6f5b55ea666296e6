#include <backplane/path_text.hpp>
#include <backplane/program_arguments.hpp>

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace backplane {
namespace {

// "bäckends-日本" in UTF-8 bytes, and (on Windows) as UTF-16 code units.
const std::string kUtf8Name = "b\xC3\xA4" "ckends-\xE6\x97\xA5\xE6\x9C\xAC";
#if defined(_WIN32)
const std::wstring kWideName = L"b\u00E4ckends-\u65E5\u672C";
#endif

TEST_CASE("path text: UTF-8 text makes the path it names and comes back unchanged") {
  const std::filesystem::path path = PathFromUtf8(kUtf8Name);
  CHECK(PathToUtf8(path) == kUtf8Name);
#if defined(_WIN32)
  CHECK(path.native() == kWideName);  // the file name Windows sees (not the ANSI code page's reading)
#else
  CHECK(path.native() == kUtf8Name);  // the bytes
#endif
  const std::filesystem::path nested = PathFromUtf8("plugins") / PathFromUtf8(kUtf8Name) / "lib";
  CHECK(PathToUtf8(nested.filename()) == "lib");
  CHECK(PathToUtf8(nested.parent_path().filename()) == kUtf8Name);
}

TEST_CASE("path text: ASCII is unchanged both ways") {
  CHECK(PathToUtf8(PathFromUtf8("Acme_Fast_backend.json")) == "Acme_Fast_backend.json");
  CHECK(PathToUtf8(std::filesystem::path()) == "");
  CHECK(PathFromUtf8("").empty());
}

#if defined(_WIN32)
TEST_CASE("path text: on Windows what UTF-8 and UTF-16 cannot both spell becomes U+FFFD, never an exception") {
  const std::wstring unpaired = L"a" + std::wstring(1, wchar_t(0xD800)) + L"b";  // a lone high surrogate
  CHECK(PathToUtf8(std::filesystem::path(unpaired)) == "a\xEF\xBF\xBD" "b");
  CHECK(PathFromUtf8("a\xFF" "b").native() == L"a\uFFFD" L"b");  // 0xFF is never UTF-8
}
#else
TEST_CASE("path text: on POSIX a path is bytes, passed through whether or not they are UTF-8") {
  const std::string latin1 = "b\xE4" "ckends";  // not UTF-8
  CHECK(PathFromUtf8(latin1).native() == latin1);
  CHECK(PathToUtf8(std::filesystem::path(latin1)) == latin1);
}
#endif

TEST_CASE("program arguments: argc() and argv() as main's, ending in a null pointer") {
  // This test program's own command line is what Windows gives back; elsewhere argv as given.
  const char* argv[] = {"program", "--path", nullptr};
  const std::vector<std::string> arguments = Utf8ProgramArguments(2, argv);
#if !defined(_WIN32)
  CHECK(arguments == std::vector<std::string>{"program", "--path"});
#endif
  const ProgramArguments wrapped(2, argv);
  CHECK(wrapped.argc() == static_cast<int>(arguments.size()));
  CHECK(wrapped.argv()[wrapped.argc()] == nullptr);
  for (int i = 0; i < wrapped.argc(); ++i) CHECK(wrapped.argv()[i] == arguments[static_cast<std::size_t>(i)]);
}

}  // namespace
}  // namespace backplane
