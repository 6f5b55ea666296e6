#include "loading/c_layer.hpp"

#include <backplane/exception.hpp>

namespace backplane::loading {

BpTensorInfo ToC(const TensorInfo& info) {
  const auto& dims = info.shape.Dims();
  return {sizeof(BpTensorInfo), static_cast<std::uint32_t>(info.type), dims.data(), dims.size()};
}

CLayer::CLayer(const backend::ILayerView& view) {
  const std::size_t input_count = view.GetNumInputs();
  const std::size_t output_count = view.GetNumOutputs();
  inputs_.reserve(input_count);
  constants_.reserve(input_count);
  producer_names_.reserve(input_count);
  producers_.reserve(input_count);
  for (std::size_t i = 0; i < input_count; ++i) {
    inputs_.push_back(ToC(view.GetInputInfo(i)));
    constants_.push_back(view.GetConstantInput(i));
    std::size_t output = 0;
    producer_names_.push_back(view.GetInputProducer(i, &output));
    producers_.push_back({{}, output});
  }
  // The names are in place now: point at them (push_back above may have moved them).
  for (std::size_t i = 0; i < input_count; ++i) {
    producers_[i].layer = {producer_names_[i].data(), producer_names_[i].size()};
  }
  outputs_.reserve(output_count);
  consumer_counts_.reserve(output_count);
  for (std::size_t o = 0; o < output_count; ++o) {
    outputs_.push_back(ToC(view.GetOutputInfo(o)));
    consumer_counts_.push_back(view.GetOutputConsumerCount(o));
  }

  const backend::LayerType type = view.GetType();
  const void* attributes = nullptr;
  if (type == backend::LayerType::kPreCompiled) {
    const auto* payload = dynamic_cast<const backend::PreCompiledPayload*>(view.GetDescriptor());
    if (payload == nullptr) {
      throw Exception(ErrorCode::kInternal, "PreCompiled layer '" + view.GetName() +
                                                "' carries no payload of the backend that made it");
    }
    precompiled_ = {sizeof(BpPreCompiledAttributes), payload->payload};
    attributes = &precompiled_;
  } else {
    attributes = attributes_.Set(type, view.GetDescriptor());
  }

  const std::string& name = view.GetName();
  layer_.struct_size = sizeof(BpLayer);
  layer_.type = static_cast<std::uint32_t>(type);
  layer_.name = {name.data(), name.size()};
  layer_.inputs = inputs_.data();
  layer_.input_count = inputs_.size();
  layer_.outputs = outputs_.data();
  layer_.output_count = outputs_.size();
  layer_.attributes = attributes;
  layer_.constant_inputs = constants_.data();
  layer_.producers = producers_.data();
  layer_.output_consumer_counts = consumer_counts_.data();
}

}  // namespace backplane::loading
