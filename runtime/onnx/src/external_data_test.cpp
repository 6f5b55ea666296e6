// External data: ExternalDataFolder::Read's rules one by one, then whole models (initializers
// and Constant nodes stored in a file beside the .onnx) through ImportModel and CpuRef.
#include "external_data.hpp"

#include "model_check.hpp"
#include "temp_folder.hpp"

#include <backplane/exception.hpp>
#include <backplane/npy.hpp>
#include <backplane/onnx_importer.hpp>

#include <doctest/doctest.h>
#include <onnx/onnx_pb.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace fs = std::filesystem;
using backplane::DataType;
using backplane::ErrorCode;
using backplane::Exception;
using backplane::NpyArray;
using backplane::TensorShape;
using backplane::WriteNpy;
using backplane::test_support::TempFolder;
using backplane::onnx::ExternalDataFolder;
using backplane::onnx::ImportModel;
using backplane::onnx::ImportModelFromMemory;
using backplane::onnx::ImportOptions;
using backplane::onnx::testing::CheckMatchesExpected;
using Entries = std::vector<std::pair<std::string, std::string>>;

// `code: message` of what `call` throws, or "no error".
template <typename Call>
std::string ErrorOf(Call&& call) {
  try {
    call();
  } catch (const Exception& error) {
    return std::string(backplane::ToString(error.code())) + ": " + error.what();
  }
  return "no error";
}

bool Contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

void WriteFile(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

template <typename T>
std::string Bytes(const std::vector<T>& values) {
  return {reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T)};
}

// A tensor whose data is external, described by `entries`.
onnx::TensorProto External(const std::string& name, const std::vector<std::int64_t>& dims, int type,
                           const Entries& entries) {
  onnx::TensorProto tensor;
  tensor.set_name(name);
  tensor.set_data_type(type);
  for (const auto d : dims) tensor.add_dims(d);
  tensor.set_data_location(onnx::TensorProto::EXTERNAL);
  for (const auto& [key, value] : entries) {
    auto* entry = tensor.add_external_data();
    entry->set_key(key);
    entry->set_value(value);
  }
  return tensor;
}

onnx::TensorProto Floats23(const Entries& entries) { return External("w", {2, 3}, onnx::TensorProto::FLOAT, entries); }

// A folder with a 40-byte data.bin: 8 bytes of padding, then six floats 1..6 at offset 8 (24
// bytes), then 8 more bytes.
struct DataFolder {
  TempFolder temp{"onnx-external"};
  const std::vector<float> values{1, 2, 3, 4, 5, 6};
  DataFolder() { WriteFile(path() / "data.bin", std::string(8, 'p') + Bytes(values) + std::string(8, 'q')); }
  const fs::path& path() const { return temp.path(); }
  ExternalDataFolder Folder() const { return ExternalDataFolder::OfModel((path() / "m.onnx").string()); }
  std::string ErrorFor(const Entries& entries) const {
    return ErrorOf([&] { Folder().Read(Floats23(entries), 24); });
  }
};

}  // namespace

// ---- ExternalDataFolder::Read -------------------------------------------------------------------

TEST_CASE("external data: the range given by offset and length is read") {
  const DataFolder data;
  const auto bytes = data.Folder().Read(Floats23({{"location", "data.bin"}, {"offset", "8"}, {"length", "24"}}), 24);
  CHECK(bytes.size() == 24);
  CHECK(std::memcmp(bytes.data(), data.values.data(), 24) == 0);
  // Without length: the rest of the file from offset, which must be exactly the tensor.
  const auto tail = data.Folder().Read(Floats23({{"location", "data.bin"}, {"offset", "32"}, {"checksum", "x"}}), 8);
  CHECK(std::string(tail.begin(), tail.end()) == std::string(8, 'q'));
  // ".." that stays inside the folder, and a symbolic link to a file inside it, are fine.
  fs::create_directory(data.path() / "sub");
  const Entries inside{{"location", "sub/../data.bin"}, {"offset", "8"}, {"length", "24"}};
  CHECK(data.Folder().Read(Floats23(inside), 24) == bytes);
  std::error_code error;
  fs::create_symlink(data.path() / "data.bin", data.path() / "sub" / "link.bin", error);
  if (!error) {
    CHECK(data.Folder().Read(Floats23({{"location", "sub/link.bin"}, {"offset", "8"}, {"length", "24"}}), 24) == bytes);
  }
}

TEST_CASE("external data: a location outside the model's folder is refused") {
  const DataFolder data;
  const std::string absolute = (data.path() / "data.bin").string();
  CHECK(data.ErrorFor({{"location", absolute}, {"offset", "8"}, {"length", "24"}}) ==
        "invalid_argument: external data '" + absolute +
            "': the location is an absolute path; external data files must be inside the model's folder (" +
            data.path().string() + ")");
  const std::string escape =
      "invalid_argument: external data '../data.bin': the location leaves the model's folder through '..'; "
      "external data files must be inside it";
  CHECK(data.ErrorFor({{"location", "../data.bin"}}) == escape);
  // Escapes even when the path comes back in: <folder>/../<folder name>/data.bin.
  const std::string back_in = "sub/../../" + data.path().filename().string() + "/data.bin";
  CHECK(Contains(data.ErrorFor({{"location", back_in}}), "leaves the model's folder through '..'"));

  // A symbolic link inside the folder to a file outside it.
  const TempFolder outside("onnx-external-outside");
  WriteFile(outside.path() / "secret.bin", std::string(24, 's'));
  std::error_code file_error, folder_error;
  fs::create_symlink(outside.path() / "secret.bin", data.path() / "link.bin", file_error);
  fs::create_directory_symlink(outside.path(), data.path() / "linked_folder", folder_error);
  if (file_error || folder_error) {
    MESSAGE("skipped the symbolic-link cases: " << (file_error ? file_error : folder_error).message());
    return;
  }
  CHECK(data.ErrorFor({{"location", "link.bin"}}) ==
        "invalid_argument: external data 'link.bin': the location resolves to " +
            (outside.path() / "secret.bin").string() + ", outside the model's folder " + data.path().string() +
            " (through a symbolic link)");
  CHECK(Contains(data.ErrorFor({{"location", "linked_folder/secret.bin"}}), "outside the model's folder"));
}

TEST_CASE("external data: a missing file, a folder, and bad offsets or lengths") {
  const DataFolder data;
  CHECK(data.ErrorFor({{"location", "nowhere.bin"}}) == "not_found: external data 'nowhere.bin': no such file (" +
                                                            (data.path() / "nowhere.bin").string() + ")");
  fs::create_directory(data.path() / "folder.bin");
  CHECK(data.ErrorFor({{"location", "folder.bin"}}) ==
        "invalid_argument: external data 'folder.bin': not a regular file (" + (data.path() / "folder.bin").string() +
            ")");
  CHECK(data.ErrorFor({{"location", "data.bin"}, {"offset", "24"}, {"length", "24"}}) ==
        "invalid_argument: external data 'data.bin': offset 24 + length 24 is beyond the end of the file (40 bytes)");
  CHECK(data.ErrorFor({{"location", "data.bin"}, {"offset", "41"}}) ==
        "invalid_argument: external data 'data.bin': offset 41 is beyond the end of the file (40 bytes)");
  // offset + length would wrap around 2^64.
  CHECK(data.ErrorFor({{"location", "data.bin"}, {"offset", "18446744073709551600"}, {"length", "24"}}) ==
        "invalid_argument: external data 'data.bin': offset 18446744073709551600 is beyond the end of the file (40 "
        "bytes)");
  CHECK(data.ErrorFor({{"location", "data.bin"}, {"offset", "8"}, {"length", "20"}}) ==
        "invalid_argument: external data 'data.bin': length is 20 bytes, but the tensor's data type and dims need 24");
  CHECK(data.ErrorFor({{"location", "data.bin"}, {"offset", "8"}}) ==
        "invalid_argument: external data 'data.bin': no length given, and the 32 bytes from offset 8 to the end of the "
        "file are not the 24 bytes the tensor's data type and dims need");
}

TEST_CASE("external data: malformed external_data entries") {
  const DataFolder data;
  CHECK(data.ErrorFor({{"offset", "0"}}) ==
        "invalid_argument: its data is external (data_location EXTERNAL) but external_data has no location");
  CHECK(data.ErrorFor({{"location", "data.bin"}, {"location", "other.bin"}}) ==
        "invalid_argument: external_data has the key 'location' twice");
  CHECK(data.ErrorFor({{"location", "data.bin"}, {"basepath", "/"}}) ==
        "invalid_argument: external_data has the unknown key 'basepath' (known: location, offset, length, checksum)");
  for (const std::string bad : {"-1", "12x", "", "+8", "18446744073709551616"}) {
    CHECK(data.ErrorFor({{"location", "data.bin"}, {"offset", bad}}) ==
          "invalid_argument: external_data offset '" + bad + "' is not a non-negative decimal integer below 2^64");
  }
  const std::string nul("data.bin\0x", 10);
  CHECK(data.ErrorFor({{"location", nul}}) ==
        "invalid_argument: external data 'data.bin?x': the location contains a NUL character");
  auto both = Floats23({{"location", "data.bin"}});
  both.set_raw_data(std::string(24, '\0'));
  CHECK(ErrorOf([&] { data.Folder().Read(both, 24); }) ==
        "invalid_argument: external data 'data.bin': the tensor has both external data and raw_data");
}

TEST_CASE("external data: a model from memory has no folder to read it from") {
  CHECK(ErrorOf([] { ExternalDataFolder().Read(Floats23({{"location", "data.bin"}}), 24); }) ==
        "invalid_argument: external data 'data.bin': a model imported from memory has no folder to read external "
        "data from; import it from its file (ImportModel(path)), with the data file beside it");
}

// ---- Whole models -------------------------------------------------------------------------------

namespace {

// y = Reshape(x + w + c, shape): w (f32 [2,3]) and shape (i64 [2] = {3,2}) are initializers, c
// (f32 [2,3]) a Constant node's value. With `external`, all three are in weights.bin (w at
// offset 0, shape at 24, c at 40 with no length: to the end; c's file is `constant_location`
// when given); otherwise inline.
onnx::ModelProto ThreeConstantsModel(bool external, const std::string& location = "weights.bin",
                                     const std::string& constant_location = {}) {
  onnx::ModelProto model;
  model.set_ir_version(8);
  auto* opset = model.add_opset_import();
  opset->set_domain("");
  opset->set_version(13);
  auto* graph = model.mutable_graph();
  graph->set_name("external");
  auto value_info = [](onnx::ValueInfoProto* info, const std::string& name, std::vector<std::int64_t> dims) {
    info->set_name(name);
    auto* type = info->mutable_type()->mutable_tensor_type();
    type->set_elem_type(onnx::TensorProto::FLOAT);
    for (const auto d : dims) type->mutable_shape()->add_dim()->set_dim_value(d);
  };
  value_info(graph->add_input(), "x", {2, 3});
  value_info(graph->add_output(), "y", {3, 2});
  auto tensor = [&](const std::string& name, std::vector<std::int64_t> dims, int type, const std::string& bytes,
                    const Entries& entries) {
    if (external) return External(name, dims, type, entries);
    onnx::TensorProto inline_tensor;
    inline_tensor.set_name(name);
    inline_tensor.set_data_type(type);
    for (const auto d : dims) inline_tensor.add_dims(d);
    inline_tensor.set_raw_data(bytes);
    return inline_tensor;
  };
  *graph->add_initializer() = tensor("w", {2, 3}, onnx::TensorProto::FLOAT, Bytes<float>({1, 2, 3, 4, 5, 6}),
                                     {{"location", location}, {"offset", "0"}, {"length", "24"}});
  *graph->add_initializer() = tensor("shape", {2}, onnx::TensorProto::INT64, Bytes<std::int64_t>({3, 2}),
                                     {{"location", location}, {"offset", "24"}, {"length", "16"}});
  auto node = [&](const std::string& op, std::vector<std::string> inputs, const std::string& output) {
    auto* added = graph->add_node();
    added->set_op_type(op);
    added->set_name(output + "_node");
    for (const auto& input : inputs) added->add_input(input);
    added->add_output(output);
    return added;
  };
  auto* constant = node("Constant", {}, "c")->add_attribute();
  constant->set_name("value");
  constant->set_type(onnx::AttributeProto::TENSOR);
  *constant->mutable_t() = tensor("c", {2, 3}, onnx::TensorProto::FLOAT, Bytes<float>({10, 20, 30, 40, 50, 60}),
                                  {{"location", constant_location.empty() ? location : constant_location},
                                   {"offset", "40"}});
  node("Add", {"x", "w"}, "s");
  node("Add", {"s", "c"}, "t");
  node("Reshape", {"t", "shape"}, "y");
  return model;
}

std::string WeightsBin() {
  return Bytes<float>({1, 2, 3, 4, 5, 6}) + Bytes<std::int64_t>({3, 2}) + Bytes<float>({10, 20, 30, 40, 50, 60});
}

void WriteModel(const fs::path& path, const onnx::ModelProto& model) { WriteFile(path, model.SerializeAsString()); }

NpyArray Npy(const TensorShape& shape, const std::vector<float>& values) {
  return {DataType::kFloat32, shape, std::vector<std::uint8_t>(reinterpret_cast<const std::uint8_t*>(values.data()),
                                                               reinterpret_cast<const std::uint8_t*>(values.data()) +
                                                                   values.size() * sizeof(float))};
}

}  // namespace

TEST_CASE("a model with external data imports and runs like the same model with its data inline") {
  const TempFolder folder("onnx-external-model");
  WriteModel(folder.path() / "external.onnx", ThreeConstantsModel(true));
  WriteModel(folder.path() / "inline.onnx", ThreeConstantsModel(false));
  WriteFile(folder.path() / "weights.bin", WeightsBin());
  WriteNpy((folder.path() / "expected.x.npy").string(), Npy({2, 3}, {0.5f, -1, 2, 0, 1, -3}));
  // x + w + c, as [3,2].
  WriteNpy((folder.path() / "expected.y.npy").string(), Npy({3, 2}, {11.5f, 21, 35, 44, 56, 63}));
  const std::string dir = folder.path().string();
  const auto external = CheckMatchesExpected(dir, "external", {}, 0.0, "expected");
  const auto inlined = CheckMatchesExpected(dir, "inline", {}, 0.0, "expected");
  CHECK(external.outputs.at("y").data == inlined.outputs.at("y").data);

  // The data file may be in a subfolder, named by a relative path.
  fs::create_directory(folder.path() / "data");
  fs::rename(folder.path() / "weights.bin", folder.path() / "data" / "weights.bin");
  WriteModel(folder.path() / "sub.onnx", ThreeConstantsModel(true, "data/weights.bin"));
  CheckMatchesExpected(dir, "sub", {}, 0.0, "expected");
}

TEST_CASE("external data errors name the model, the tensor, the location and the reason") {
  const TempFolder folder("onnx-external-errors");
  const std::string path = (folder.path() / "m.onnx").string();
  WriteModel(path, ThreeConstantsModel(true));
  // The file is missing: the first initializer reports it.
  CHECK(ErrorOf([&] { ImportModel(path); }) == "not_found: " + path +
                                                   ": initializer 'w': external data 'weights.bin': no such file (" +
                                                   (folder.path() / "weights.bin").string() + ")");
  // Too short for the Constant node's value (offset 40, to the end): the node is named.
  WriteFile(folder.path() / "weights.bin", WeightsBin().substr(0, 60));
  CHECK(ErrorOf([&] { ImportModel(path); }) ==
        "invalid_argument: " + path +
            ": node 'c_node' (Constant): value: external data 'weights.bin': no length given, and the 20 bytes from "
            "offset 40 to the end of the file are not the 24 bytes the tensor's data type and dims need");
  // The Constant node's file is missing.
  WriteModel(path, ThreeConstantsModel(true, "weights.bin", "constant.bin"));
  CHECK(ErrorOf([&] { ImportModel(path); }) == "not_found: " + path +
                                                   ": node 'c_node' (Constant): value: external data 'constant.bin': "
                                                   "no such file (" +
                                                   (folder.path() / "constant.bin").string() + ")");
  // A location outside the folder.
  WriteModel(path, ThreeConstantsModel(true, "../weights.bin"));
  CHECK(ErrorOf([&] { ImportModel(path); }) ==
        "invalid_argument: " + path +
            ": initializer 'w': external data '../weights.bin': the location leaves the model's folder through '..'; "
            "external data files must be inside it");
}

TEST_CASE("a model with external data imported from memory: the error says it needs the model's path") {
  const std::string bytes = ThreeConstantsModel(true).SerializeAsString();
  CHECK(ErrorOf([&] { ImportModelFromMemory(bytes.data(), bytes.size(), "m.onnx"); }) ==
        "invalid_argument: m.onnx: initializer 'w': external data 'weights.bin': a model imported from memory has no "
        "folder to read external data from; import it from its file (ImportModel(path)), with the data file beside it");
}

TEST_CASE("external data counts against the memory budget before it is read") {
  const TempFolder folder("onnx-external-budget");
  const std::string path = (folder.path() / "m.onnx").string();
  WriteModel(path, ThreeConstantsModel(true));
  WriteFile(folder.path() / "weights.bin", WeightsBin());
  ImportOptions options;
  options.memory_budget_bytes = 30;  // w (24 bytes) fits, shape (16 more) does not
  CHECK(ErrorOf([&] { ImportModel(path, options); }) ==
        "invalid_argument: " + path +
            ": initializer 'shape': the tensor i64 [2] needs 16 bytes, but the import's memory budget of 30 bytes "
            "(ImportOptions::memory_budget_bytes) has 24 bytes of constants and activations in use already");
}

TEST_CASE("a small model whose external data file is larger than 2 GiB reads only its tensors' ranges") {
  // A sparse file of 3 GiB: the model's data at the end, read without reading the rest, and
  // ImportOptions::max_model_bytes (which caps the .onnx file and each tensor) does not limit it.
  const TempFolder folder("onnx-external-large");
  const std::uint64_t start = 3ull << 30;
  {
    std::ofstream file(folder.path() / "weights.bin", std::ios::binary);
    file.seekp(static_cast<std::streamoff>(start));
    const std::string data = WeightsBin();
    file.write(data.data(), static_cast<std::streamsize>(data.size()));
    if (!file) {
      MESSAGE("skipped: cannot write a 3 GiB sparse file in " << folder.path().string());
      return;
    }
  }
  REQUIRE(fs::file_size(folder.path() / "weights.bin") == start + 64);
  onnx::ModelProto model = ThreeConstantsModel(true);
  auto shift = [&](onnx::TensorProto* tensor) {
    for (auto& entry : *tensor->mutable_external_data()) {
      if (entry.key() == "offset") entry.set_value(std::to_string(start + std::stoull(entry.value())));
    }
  };
  shift(model.mutable_graph()->mutable_initializer(0));
  shift(model.mutable_graph()->mutable_initializer(1));
  shift(model.mutable_graph()->mutable_node(0)->mutable_attribute(0)->mutable_t());
  WriteModel(folder.path() / "large.onnx", model);
  WriteNpy((folder.path() / "expected.x.npy").string(), Npy({2, 3}, {0, 0, 0, 0, 0, 0}));
  WriteNpy((folder.path() / "expected.y.npy").string(), Npy({3, 2}, {11, 22, 33, 44, 55, 66}));
  ImportOptions options;
  options.max_model_bytes = 1 << 20;
  CheckMatchesExpected(folder.path().string(), "large", options, 0.0, "expected");
}
