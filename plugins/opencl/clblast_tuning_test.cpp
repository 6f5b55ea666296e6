// CLBlast tuning without running the tuner (about 10 minutes on PoCL, so never in a test):
// device data round trips beside the program cache, cached parameters are applied, and a
// missing or unreadable cache leaves CLBlast's database parameters with a note saying how to
// tune.
#include "clblast_tuning.hpp"
#include "opencl_test_device.hpp"

#include <clblast.h>

#include <doctest/doctest.h>

#include <fstream>
#include <string>
#include <unordered_map>

using namespace backplane::opencl;
using backplane::opencl::testing::TempFolder;
using backplane::opencl::testing::TestDevice;

TEST_CASE("opencl tuning: device data is kept per device beside the programs, and a corrupt file is ignored") {
  TempFolder folder;
  const auto device = TestDevice(folder.path());
  if (!device) return;
  CHECK_FALSE(device->LoadDeviceData("example"));
  const std::vector<unsigned char> bytes{'a', 'b', '\n'};
  REQUIRE(device->StoreDeviceData("example", bytes));
  CHECK(device->LoadDeviceData("example") == bytes);
  CHECK_FALSE(device->LoadDeviceData("other"));
  const auto reopened = TestDevice(folder.path());
  CHECK(reopened->LoadDeviceData("example") == bytes);
  for (const auto& entry : std::filesystem::directory_iterator(folder.path())) {
    std::ofstream(entry.path(), std::ios::binary | std::ios::app) << "tampered";
  }
  CHECK_FALSE(reopened->LoadDeviceData("example"));
}

TEST_CASE("opencl tuning: without a cache the database stays, cached parameters are applied once per process") {
  TempFolder folder;
  const auto device = TestDevice(folder.path());
  if (!device) return;
  std::vector<std::string> progress;
  const auto record = [&](const std::string& message) { progress.push_back(message); };

  // Nothing cached, no tuning asked for.
  ClblastTuning none = PrepareClblastTuning(*device, false, record);
  CHECK(none.source == ClblastTuning::Source::kDatabase);
  CHECK(none.note.find("tune=1") != std::string::npos);

  // Unreadable content: ignored like no cache.
  const std::string garbage = "not a parameter list at all\n";
  REQUIRE(device->StoreDeviceData(kTunedGemmDataName, {garbage.begin(), garbage.end()}));
  CHECK(PrepareClblastTuning(*device, false, record).source == ClblastTuning::Source::kDatabase);

  // The database's own parameters, cached as if tuned: applied (they change nothing for the
  // other tests of this process).
  std::unordered_map<std::string, std::size_t> parameters;
  REQUIRE(clblast::RetrieveParameters(device->Device(), "Xgemm", clblast::Precision::kSingle, parameters) ==
          clblast::StatusCode::kSuccess);
  std::string text;
  for (const auto& [name, value] : parameters) text += name + " " + std::to_string(value) + "\n";
  REQUIRE(device->StoreDeviceData(kTunedGemmDataName, {text.begin(), text.end()}));
  const ClblastTuning cached = PrepareClblastTuning(*device, false, record);
  CHECK(cached.source == ClblastTuning::Source::kCache);
  CHECK(cached.note.find(folder.path().string()) != std::string::npos);
  const ClblastTuning again = PrepareClblastTuning(*device, true, record);
  CHECK(again.source == ClblastTuning::Source::kCache);
  CHECK(again.note.find("earlier in this process") != std::string::npos);
  CHECK(progress.empty());  // no tuner ran
}
