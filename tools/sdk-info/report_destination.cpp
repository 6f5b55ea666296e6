#include "report_destination.hpp"

#include "exit_code.hpp"
#include "whole_file.hpp"

#include <iostream>
#include <system_error>

namespace backplane::sdk_info {

namespace {

[[noreturn]] void CannotWrite(const std::string& where, int error_number) {
  std::string message = "cannot write the report to " + where;
  if (error_number != 0) message += ": " + std::generic_category().message(error_number);
  throw ToolError(ExitCode::kCannotWrite, message);
}

}  // namespace

void WriteReport(const std::string& report, const std::string& file) {
  if (file.empty()) {
    std::cout << report;
    std::cout.flush();
    if (!std::cout) CannotWrite("stdout", 0);
    return;
  }
  if (const int error_number = tools::WriteWholeFile(file, report)) CannotWrite(file, error_number);
}

}  // namespace backplane::sdk_info
