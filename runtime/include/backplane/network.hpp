// Network: the builder applications (and the ONNX importer) describe a model with.
//
//   backplane::Network net;
//   auto x = net.AddInput("x", {{1, 3, 32, 32}});
//   auto w = net.AddConstant("w", {16, 3, 3, 3}, weights);          // std::vector<float>
//   backplane::Convolution2dDescriptor conv;
//   conv.pads = {1, 1, 1, 1};
//   auto y = net.Add(conv, {x, w}, "conv1");
//   net.AddOutput("y", net.Add(backplane::ActivationDescriptor{}, {y}, "relu1"));
//
// Users give only the input shapes; every other tensor's shape is inferred (GetOutputInfo).
#pragma once

#include <backplane/backend_id.hpp>
#include <backplane/descriptors.hpp>
#include <backplane/runtime_export.hpp>
#include <backplane/types.hpp>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace backplane {

namespace detail {
struct ImplAccess;  // defined inside the runtime only (runtime/src/impl_access.hpp)
}  // namespace detail

using LayerId = std::uint32_t;

// Output `index` of layer `layer`: a tensor.
struct OutputSlot {
  LayerId layer = 0;
  std::uint32_t index = 0;
};

// Input `index` of layer `layer`.
struct InputSlot {
  LayerId layer = 0;
  std::uint32_t index = 0;
};

// Owns its layers and descriptors; constants share their data (AddConstant). Not thread-safe
// to modify; const methods may be called concurrently. Every method that takes a layer id,
// slot or name throws backplane::Exception (kInvalidArgument / kNotFound) naming it when it
// is out of range or unknown; the network is unchanged then.
class BACKPLANE_RUNTIME_API Network {
 public:
  Network();
  ~Network();
  Network(Network&&) noexcept;
  Network& operator=(Network&&) noexcept;
  Network(const Network&) = delete;
  Network& operator=(const Network&) = delete;

  // A named input of the network. Names of inputs, outputs and layers are unique.
  OutputSlot AddInput(const std::string& name, const TensorInfo& info);
  // A named output of the network, fed by `source`.
  void AddOutput(const std::string& name, OutputSlot source);

  // A constant tensor. `data` must hold info.NumBytes() bytes; it is shared, not copied.
  OutputSlot AddConstant(const std::string& name, const TensorInfo& info,
                         std::shared_ptr<const std::vector<std::uint8_t>> data);
  // Convenience: copies `values` (float, int32_t or int64_t) into a new constant.
  template <typename T>
  OutputSlot AddConstant(const std::string& name, const TensorShape& shape,
                         const std::vector<T>& values);

  // Adds a layer of `descriptor`'s type, connects `inputs` to its input slots 0..n-1 (more
  // can be connected later with Connect) and gives it `num_outputs` outputs (Split: one per
  // size; every other op: 1). An empty name gets a generated one ("Convolution2d_7").
  template <typename Descriptor>
  LayerId AddLayer(const Descriptor& descriptor, const std::string& name = {},
                   const std::vector<OutputSlot>& inputs = {}, std::uint32_t num_outputs = 1) {
    static_assert(std::is_base_of_v<LayerDescriptor, Descriptor>, "not a layer descriptor");
    return AddLayer(Descriptor::kType, std::make_shared<const Descriptor>(descriptor), name,
                    inputs, num_outputs);
  }
  // The same, returning output 0: for the common single-output case.
  template <typename Descriptor>
  OutputSlot Add(const Descriptor& descriptor, const std::vector<OutputSlot>& inputs,
                 const std::string& name = {}) {
    return {AddLayer(descriptor, name, inputs), 0};
  }
  LayerId AddLayer(LayerType type, std::shared_ptr<const LayerDescriptor> descriptor,
                   const std::string& name, const std::vector<OutputSlot>& inputs,
                   std::uint32_t num_outputs);

  // Connects `from` to `to`. An input slot takes one connection; throws if already connected.
  void Connect(OutputSlot from, InputSlot to);

  // Keeps the layer on `backend`: Optimize fails rather than place it elsewhere.
  void PinLayer(const std::string& layer_name, const BackendId& backend);

  // Shape and type of a tensor, inferred from the inputs up. Throws Exception
  // (kInvalidArgument) naming the layer when it cannot be inferred (an unconnected input,
  // mismatched shapes, a cycle).
  TensorInfo GetOutputInfo(OutputSlot slot) const;

  std::size_t GetNumLayers() const;
  LayerId FindLayer(const std::string& name) const;  // throws kNotFound
  std::vector<std::string> GetInputNames() const;
  std::vector<std::string> GetOutputNames() const;

  // Runtime-private (defined in runtime/src/graph/graph.hpp).
  struct Impl;

 private:
  friend struct detail::ImplAccess;
  std::unique_ptr<Impl> impl_;
};

template <typename T>
OutputSlot Network::AddConstant(const std::string& name, const TensorShape& shape,
                                const std::vector<T>& values) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, std::int32_t> ||
                    std::is_same_v<T, std::int64_t>,
                "constants of float, int32_t or int64_t");
  const DataType type = std::is_same_v<T, float>          ? DataType::kFloat32
                        : std::is_same_v<T, std::int32_t> ? DataType::kInt32
                                                          : DataType::kInt64;
  auto bytes = std::make_shared<std::vector<std::uint8_t>>(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(bytes->data(), values.data(), bytes->size());
  return AddConstant(name, TensorInfo{shape, type}, std::move(bytes));
}

}  // namespace backplane
