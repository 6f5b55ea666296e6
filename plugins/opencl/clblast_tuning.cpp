#include "clblast_tuning.hpp"

#include <clblast.h>

#include <cstddef>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <unordered_map>
#include <vector>

namespace backplane::opencl {

namespace {

constexpr char kKernel[] = "Xgemm";

using Parameters = std::unordered_map<std::string, std::size_t>;

// One "<parameter> <value>" line per parameter, sorted.
std::vector<unsigned char> Serialize(const Parameters& parameters) {
  std::ostringstream text;
  for (const auto& [name, value] : std::map<std::string, std::size_t>(parameters.begin(), parameters.end())) {
    text << name << ' ' << value << '\n';
  }
  const std::string bytes = text.str();
  return {bytes.begin(), bytes.end()};
}

// False when a line is not "<parameter> <value>" or there is none.
bool Parse(const std::vector<unsigned char>& bytes, Parameters& parameters) {
  std::istringstream text(std::string(bytes.begin(), bytes.end()));
  for (std::string line; std::getline(text, line);) {
    std::istringstream fields(line);
    std::string name, rest;
    std::size_t value = 0;
    if (!(fields >> name >> value) || (fields >> rest)) return false;
    parameters[name] = value;
  }
  return !parameters.empty();
}

std::string Status(clblast::StatusCode status) { return "status " + std::to_string(static_cast<int>(status)); }

}  // namespace

ClblastTuning PrepareClblastTuning(OpenClDevice& device, bool tune,
                                   const std::function<void(const std::string&)>& progress) {
  static std::mutex mutex;
  static std::set<cl_device_id> applied;  // devices whose tuned parameters are in place
  std::lock_guard<std::mutex> lock(mutex);
  ClblastTuning result;
  if (applied.count(device.Device())) {
    result.source = ClblastTuning::Source::kCache;
    result.note = "tuned CLBlast parameters, applied earlier in this process";
    return result;
  }
  Parameters parameters;
  if (const auto cached = device.LoadDeviceData(kTunedGemmDataName); cached && Parse(*cached, parameters)) {
    const auto status = clblast::OverrideParameters(device.Device(), kKernel, clblast::Precision::kSingle, parameters);
    if (status == clblast::StatusCode::kSuccess) {
      applied.insert(device.Device());
      result.source = ClblastTuning::Source::kCache;
      result.note = "tuned CLBlast parameters from the cache in " + device.ProgramCacheDirectory();
      return result;
    }
    result.note = "cached tuned parameters refused by CLBlast (" + Status(status) + "); ";
    parameters.clear();
  }
  if (!tune) {
    result.note += "CLBlast's database parameters (backend option tune=1 measures tuned ones once)";
    return result;
  }
  // Sizes and sample: what keeps a CPU device to about 10 minutes (most of it compiling
  // candidates); a GPU times each candidate on a larger product in the same order of time.
  const std::size_t size = device.IsCpu() ? 256 : 1024;
  const double fraction = 0.002;
  if (progress) {
    progress("tuning CLBlast's GEMM on " + device.Description() + " (" + std::to_string(size) +
             "^3, a sample of its search space; minutes, once per device and driver)");
  }
  cl_command_queue queue = device.Queue();
  clblast::StatusCode status;
  {
    std::lock_guard<std::recursive_mutex> launch(device.LaunchMutex());
    status = clblast::TuneXgemm<float>(&queue, size, size, size, fraction, parameters);
  }
  if (status != clblast::StatusCode::kSuccess || parameters.empty()) {
    result.note += "CLBlast's Xgemm tuner failed (" + Status(status) + "); database parameters stay";
    return result;
  }
  status = clblast::OverrideParameters(device.Device(), kKernel, clblast::Precision::kSingle, parameters);
  if (status != clblast::StatusCode::kSuccess) {
    result.note += "CLBlast refused its tuner's parameters (" + Status(status) + "); database parameters stay";
    return result;
  }
  applied.insert(device.Device());
  result.source = ClblastTuning::Source::kTuned;
  result.note = device.StoreDeviceData(kTunedGemmDataName, Serialize(parameters))
                    ? "CLBlast's GEMM tuned on this device; parameters cached in " + device.ProgramCacheDirectory()
                    : "CLBlast's GEMM tuned on this device; the parameters could not be cached (this process uses them)";
  return result;
}

}  // namespace backplane::opencl
