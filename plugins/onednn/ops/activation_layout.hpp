// The layout and types activations pass between CpuOneDnn layers in: the convolutions' blocked
// layout (ExecutionSettings::activation_tag), which elementwise, pooling and normalization ops assume
// too, and the types convolutions and pooling keep them in. Pure functions; thread-safe.
#pragma once

#include "../onednn_backend_context.hpp"

#include <oneapi/dnnl/dnnl.hpp>

#include <vector>

namespace backplane::onednn {

// The layout elementwise ops assume their activations come in: the convolutions' layout
// (ExecutionSettings::activation_tag) for 4-D tensors with at least 16 channels, else dense; f32
// unless told.
dnnl::memory::desc ActivationLayout(const ExecutionSettings& execution, const dnnl::memory::dims& dims,
                                    dnnl::memory::data_type type = dnnl::memory::data_type::f32);
// The types convolutions and pooling keep 4-D activations in, best first: the compute type
// (bf16 with fast_math, so consecutive layers pass bf16 tensors), then f32 for an op oneDNN
// has only a reference kernel for in bf16.
std::vector<dnnl::memory::data_type> ActivationTypes(const ExecutionSettings& execution);
// The channel block of layout `tag` (nChw16c: 16, nChw8c: 8), 0 for other layouts.
dnnl::memory::dim ChannelBlock(dnnl::memory::format_tag tag);

}  // namespace backplane::onednn
