// Resize on oneDNN's resampling primitive, for the cases where oneDNN's coordinate rule equals
// ONNX's (backend/resampling.hpp owns ONNX's): only spatial axes (from axis 2) change, each
// output length is exactly the input length times its scale (oneDNN maps with out / in), and
//   - linear with half_pixel (or pytorch_half_pixel with outputs longer than 1), no
//     exclude_outside: oneDNN's (y + 0.5) in / out - 0.5 with the edge clamped, as ONNX's;
//   - nearest with integer scales and asymmetric+floor, or half_pixel / pytorch_half_pixel with
//     either round_prefer mode: round((y + 0.5) / s - 0.5) never ties then, and equals both.
// What the segmentation heads' bilinear upsampling and YOLO's nearest 2x upsampling export.
// Every other Resize is refused with the reason (CpuRef runs it).
#include "onednn_ops.hpp"

#include "primitive_workload.hpp"
#include "../dnnl_compat.hpp"
#include "../onednn_tensor_handle.hpp"

#include <cmath>
#include <optional>

namespace backplane::onednn {

namespace {
using dnnl::memory;
const ResizeDescriptor& Desc(const LayerDescriptor* d) { return static_cast<const ResizeDescriptor&>(*d); }

// Whether the coordinate transformation reads (y + 0.5) / s - 0.5 for these outputs.
bool IsHalfPixel(const ResizeDescriptor& d) {
  if (d.coordinate_transformation == ResizeCoordinates::kHalfPixel) return true;
  if (d.coordinate_transformation != ResizeCoordinates::kPytorchHalfPixel) return false;
  for (std::size_t a = 2; a < d.sizes.size(); ++a) {
    if (d.sizes[a] <= 1) return false;
  }
  return true;
}

// Why oneDNN's rule differs from `d`'s on input `x`, or empty when it does not.
std::string Mismatch(const ResizeDescriptor& d, const std::vector<std::int64_t>& x) {
  if (x.size() < 3 || x.size() > 5) return "oneDNN resamples tensors of rank 3 to 5";
  for (std::size_t a = 0; a < x.size(); ++a) {
    if (a < 2 && (d.sizes[a] != x[a] || d.scales[a] != 1.0)) return "oneDNN resamples the spatial axes only";
    if (static_cast<double>(d.sizes[a]) != static_cast<double>(x[a]) * d.scales[a]) {
      return "an output length that is not the input length times its scale";
    }
  }
  if (d.mode == ResizeMode::kLinear) {
    if (!IsHalfPixel(d) || d.exclude_outside) return "linear resampling other than half_pixel";
    return {};
  }
  if (d.mode != ResizeMode::kNearest) return "oneDNN has no cubic resampling";
  for (std::size_t a = 2; a < x.size(); ++a) {
    if (d.scales[a] < 1 || d.scales[a] != std::floor(d.scales[a])) return "nearest resampling by a non-integer factor";
  }
  const bool floor_asymmetric =
      d.coordinate_transformation == ResizeCoordinates::kAsymmetric && d.nearest_mode == ResizeNearest::kFloor;
  const bool rounded_half_pixel = IsHalfPixel(d) && (d.nearest_mode == ResizeNearest::kRoundPreferFloor ||
                                                     d.nearest_mode == ResizeNearest::kRoundPreferCeil);
  if (!floor_asymmetric && !rounded_half_pixel) return "nearest resampling with this coordinate rule";
  return {};
}
}  // namespace

bool IsResizeSupported(const backend::ILayerView& layer, std::string& reason) {
  if (!AllFloat32(layer, reason)) return false;
  reason = Mismatch(Desc(layer.GetDescriptor()), layer.GetInputInfo(0).shape.Dims());
  return reason.empty();
}

std::unique_ptr<backend::IWorkload> CreateResizeWorkload(const OpSpec& spec, const ExecutionSettingsPtr& execution) {
  const auto& d = Desc(spec.descriptor);
  const auto x_dims = DimsOf(spec.inputs[0].info);
  const auto y_dims = DimsOf(spec.output);
  const auto algorithm =
      d.mode == ResizeMode::kLinear ? dnnl::algorithm::resampling_linear : dnnl::algorithm::resampling_nearest;
  try {
    // In the convolutions' activation type where oneDNN has a non-reference kernel for it.
    std::optional<dnnl::resampling_forward::primitive_desc> pd;
    for (const memory::data_type type : ActivationTypes(*execution)) {
      const memory::desc src = ActivationLayout(*execution, x_dims, type);
      const memory::desc dst(y_dims, type, memory::format_tag::any);
      pd = compat::Resampling(execution->engine, algorithm, src, dst, execution->Attr());
      if (!IsReference(*pd)) break;
    }
    auto workload = std::make_unique<PrimitiveWorkload>(spec.name, execution);
    workload->SetPrimitive(dnnl::resampling_forward(*pd), pd->scratchpad_desc());
    workload->AddInput(DNNL_ARG_SRC, spec.inputs[0].index, spec.inputs[0].info, PlainDesc(x_dims), pd->src_desc());
    workload->SetOutput(DNNL_ARG_DST, 0, spec.output, PlainDesc(y_dims), pd->dst_desc());
    return workload;
  } catch (const dnnl::error& error) {
    ThrowCreateError(spec.name, std::string("resampling: ") + error.what());
  }
}

}  // namespace backplane::onednn
