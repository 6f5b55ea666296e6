// --output-dir: each output of the last run as a .npy file.
#pragma once

#include "host_tensor.hpp"

#include <string>
#include <vector>

namespace backplane::sdk_run {

// A file name stem for output `name`: letters, digits, '.', '_' and '-' are kept, every other
// byte becomes '_'; a name that would be empty, "." or ".." or start with '.' gets a leading
// '_' so it never names a hidden file or a folder.
std::string SanitizeFileName(const std::string& name);

// Creates `dir` and its parents when missing, so a bad --output-dir fails before the runs.
// Throws ToolError (kCannotWrite) naming the folder when it cannot be created.
void CreateOutputFolder(const std::string& dir);

// Writes each tensor as `dir`/<SanitizeFileName(name)>.npy, creating `dir` (and its parents)
// when missing. Two outputs whose names sanitize alike get "_2", "_3", ... appended. Returns the
// paths written, in the order of `outputs`. Throws ToolError (kCannotWrite) naming the folder
// or file that could not be written.
std::vector<std::string> WriteOutputs(const std::string& dir, const std::vector<HostTensor>& outputs);

}  // namespace backplane::sdk_run
