#include "documentation.hpp"

#include <backplane/path_text.hpp>

#include <boost/dll/runtime_symbol_info.hpp>

#include <filesystem>
#include <system_error>

namespace backplane::tools {

std::string DocumentationPath(const std::string& file) {
  std::error_code error;
  const std::filesystem::path program = boost::dll::program_location(error);
  if (!error) {
    const std::filesystem::path installed =
        program.parent_path().parent_path() / "share" / "doc" / "backplane" / "docs" / PathFromUtf8(file);
    if (std::filesystem::is_regular_file(installed, error)) {
      return PathToUtf8(std::filesystem::weakly_canonical(installed, error));
    }
  }
  return "docs/" + file + " in the SDK's documentation (share/doc/backplane in the installation)";
}

}  // namespace backplane::tools
