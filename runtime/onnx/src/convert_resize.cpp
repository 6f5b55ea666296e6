// Resize (opset 10+) and Upsample (opset 7-9) -> the Resize layer (op set v2); GridSample
// (opset 16+) -> the GridSample layer. Resize's output shape must be known at import: scales,
// sizes and roi are constants (computed at run time they are refused, naming the input). Resize-10 and Upsample map coordinates asymmetrically; their
// nearest mode is defined by ONNX for integer scales only (a repeat), so other scales are refused
// there rather than guessed.
#include "constant_folding.hpp"
#include "converters.hpp"

#include <backplane/descriptors.hpp>

#include <cmath>
#include <map>
#include <string>

namespace backplane::onnx {

namespace {

using Dims = std::vector<std::int64_t>;

template <typename Enum>
Enum Choice(const NodeContext& node, const std::string& attribute, const std::string& fallback,
            const std::map<std::string, Enum, std::less<>>& choices) {
  const std::string value = node.String(attribute, fallback);
  const auto it = choices.find(value);
  if (it == choices.end()) node.Unsupported(attribute + " '" + value + "'");
  return it->second;
}

// Per-axis values (scales, sizes, roi starts or ends) widened to every axis by opset 18's
// `axes`: the axes it does not list take `unlisted`'s value.
std::vector<double> FullRank(const NodeContext& node, const std::vector<double>& given, std::vector<double> unlisted) {
  const std::size_t rank = node.InputRank(0);
  const Dims axes = node.Ints("axes", {});
  if (axes.empty()) {
    if (given.size() != rank) {
      node.Invalid(std::to_string(given.size()) + " scales, sizes or roi bounds for an input of rank " +
                   std::to_string(rank));
    }
    return given;
  }
  if (given.size() != axes.size()) node.Invalid("scales, sizes or roi bounds do not match `axes` in length");
  for (std::size_t i = 0; i < axes.size(); ++i) unlisted[folding::NormalizeAxis(axes[i], rank)] = given[i];
  return unlisted;
}

std::vector<double> Same(const NodeContext& node, double value) { return std::vector<double>(node.InputRank(0), value); }

// Sizes from the scales (floor of scale times length, as ONNX's reference) or the scales from
// the sizes (size / length).
void SetShape(NodeContext& node, ResizeDescriptor& d, const std::vector<double>& scales, const std::vector<double>& sizes) {
  const Dims& x = node.InputDims(0);
  for (std::size_t a = 0; a < x.size(); ++a) {
    const double length = static_cast<double>(x[a]);
    if (!sizes.empty()) {
      d.sizes.push_back(static_cast<std::int64_t>(sizes[a]));
      d.scales.push_back(x[a] == 0 ? 1.0 : sizes[a] / length);
    } else {
      if (!(scales[a] > 0) || !std::isfinite(scales[a])) node.Invalid("scale " + std::to_string(scales[a]) + " is not positive");
      d.scales.push_back(scales[a]);
      d.sizes.push_back(static_cast<std::int64_t>(std::floor(scales[a] * length)));
    }
  }
}

// Resize-10 and Upsample: asymmetric coordinates; nearest only for integer scales.
void SetLegacyModes(NodeContext& node, ResizeDescriptor& d) {
  d.mode = Choice<ResizeMode>(node, "mode", "nearest", {{"nearest", ResizeMode::kNearest}, {"linear", ResizeMode::kLinear}});
  d.coordinate_transformation = ResizeCoordinates::kAsymmetric;
  d.nearest_mode = ResizeNearest::kFloor;
  if (d.mode != ResizeMode::kNearest) return;
  for (const double scale : d.scales) {
    if (scale != std::floor(scale)) {
      node.Unsupported("nearest with the non-integer scale " + std::to_string(scale) + " (opset " +
                       std::to_string(node.opset()) + " defines nearest as a repeat by an integer factor)");
    }
  }
}

void SetModes(NodeContext& node, ResizeDescriptor& d) {
  d.mode = Choice<ResizeMode>(node, "mode", "nearest",
                              {{"nearest", ResizeMode::kNearest}, {"linear", ResizeMode::kLinear}, {"cubic", ResizeMode::kCubic}});
  d.coordinate_transformation = Choice<ResizeCoordinates>(
      node, "coordinate_transformation_mode", "half_pixel",
      {{"half_pixel", ResizeCoordinates::kHalfPixel},
       {"asymmetric", ResizeCoordinates::kAsymmetric},
       {"pytorch_half_pixel", ResizeCoordinates::kPytorchHalfPixel},
       {"align_corners", ResizeCoordinates::kAlignCorners},
       {"tf_crop_and_resize", ResizeCoordinates::kTfCropAndResize},
       {"tf_half_pixel_for_nn", ResizeCoordinates::kTfHalfPixelForNn}});
  d.nearest_mode = Choice<ResizeNearest>(node, "nearest_mode", "round_prefer_floor",
                                         {{"round_prefer_floor", ResizeNearest::kRoundPreferFloor},
                                          {"round_prefer_ceil", ResizeNearest::kRoundPreferCeil},
                                          {"floor", ResizeNearest::kFloor},
                                          {"ceil", ResizeNearest::kCeil}});
  d.cubic_coeff_a = node.Float("cubic_coeff_a", -0.75f);
  d.exclude_outside = node.Int("exclude_outside", 0) != 0;
  d.extrapolation_value = node.Float("extrapolation_value", 0.0f);
  if (node.Int("antialias", 0) != 0) node.Unsupported("antialias=1");
  if (node.String("keep_aspect_ratio_policy", "stretch") != "stretch") node.Unsupported("keep_aspect_ratio_policy other than stretch");
}

// The constant values of input i, or none when it is absent or empty (Resize-11 passes an
// empty scales tensor next to sizes).
std::vector<double> OptionalValues(NodeContext& node, std::size_t i, const char* what) {
  if (!node.HasInput(i)) return {};
  return node.RequireConstant(i, what).AsDoubles();
}

// roi (input 1): only tf_crop_and_resize reads it; starts then ends, widened by `axes` (0 and 1
// for the axes not listed).
void SetRoi(NodeContext& node, ResizeDescriptor& d) {
  if (d.coordinate_transformation != ResizeCoordinates::kTfCropAndResize) return;
  const std::vector<double> roi = OptionalValues(node, 1, "roi");
  const std::size_t half = roi.size() / 2;
  const std::vector<double> starts =
      FullRank(node, {roi.begin(), roi.begin() + static_cast<std::ptrdiff_t>(half)}, Same(node, 0));
  const std::vector<double> ends = FullRank(node, {roi.begin() + static_cast<std::ptrdiff_t>(half), roi.end()}, Same(node, 1));
  for (const double v : starts) d.roi.push_back(static_cast<float>(v));
  for (const double v : ends) d.roi.push_back(static_cast<float>(v));
}

void ConvertResize(NodeContext& node) {
  ResizeDescriptor d;
  if (node.opset() < 11) {
    SetShape(node, d, FullRank(node, node.RequireConstant(1, "scales").AsDoubles(), Same(node, 1)), {});
    SetLegacyModes(node, d);
  } else {
    const std::vector<double> scales = OptionalValues(node, 2, "scales");
    const std::vector<double> sizes = OptionalValues(node, 3, "sizes");
    if (scales.empty() == sizes.empty()) node.Invalid("needs exactly one of scales and sizes");
    const Dims& x = node.InputDims(0);
    SetShape(node, d, scales.empty() ? std::vector<double>{} : FullRank(node, scales, Same(node, 1)),
             sizes.empty() ? std::vector<double>{} : FullRank(node, sizes, {x.begin(), x.end()}));
    SetModes(node, d);
    SetRoi(node, d);
  }
  node.SetOutput(0, node.Add(d, {node.Slot(0)}));
}

// Upsample-7/8: scales an attribute; 9: an input. Otherwise Resize-10's form.
void ConvertUpsample(NodeContext& node) {
  ResizeDescriptor d;
  std::vector<double> scales;
  if (node.opset() < 9) {
    for (const float s : node.Floats("scales")) scales.push_back(s);
  } else {
    if (!node.HasInput(1)) node.Invalid("needs its scales input");
    scales = node.RequireConstant(1, "scales").AsDoubles();
  }
  SetShape(node, d, FullRank(node, scales, Same(node, 1)), {});
  SetLegacyModes(node, d);
  node.SetOutput(0, node.Add(d, {node.Slot(0)}));
}

// GridSample (opset 16; opset 20 renames the modes linear and cubic and allows more spatial axes)
// -> the GridSample layer, over 2 spatial axes only.
void ConvertGridSample(NodeContext& node) {
  if (node.InputRank(0) != 4) {
    node.Unsupported("GridSample of an input of rank " + std::to_string(node.InputRank(0)) +
                     " (the GridSample layer samples 2 spatial axes: X [N, C, H, W])");
  }
  GridSampleDescriptor d;
  d.mode = Choice<GridSampleMode>(node, "mode", node.opset() < 20 ? "bilinear" : "linear",
                                  {{"bilinear", GridSampleMode::kBilinear},
                                   {"linear", GridSampleMode::kBilinear},
                                   {"nearest", GridSampleMode::kNearest},
                                   {"bicubic", GridSampleMode::kBicubic},
                                   {"cubic", GridSampleMode::kBicubic}});
  d.padding_mode = Choice<GridSamplePadding>(node, "padding_mode", "zeros",
                                             {{"zeros", GridSamplePadding::kZeros},
                                              {"border", GridSamplePadding::kBorder},
                                              {"reflection", GridSamplePadding::kReflection}});
  d.align_corners = node.Int("align_corners", 0) != 0;
  node.SetOutput(0, node.Add(d, {node.Slot(0), node.Slot(1)}));
}

}  // namespace

void AddResizeConverters(ConverterTable& table) {
  table["Resize"] = {ConvertResize, 1, 4, 1, 10};
  table["GridSample"] = {ConvertGridSample, 2, 2, 1, 16};
  table["Upsample"] = {ConvertUpsample, 1, 2, 1, 7};
}

}  // namespace backplane::onnx
