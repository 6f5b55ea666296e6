// Resize (op set v2, ONNX Resize / Upsample), f32, any mode (nearest with every nearest_mode,
// linear, cubic) and coordinate transformation, up to kMaxKernelRank axes: one output element
// per work-item (kernels/resize.cl). The taps of every output position of every axis are
// computed here, once per workload, by backplane/backend/resampling.hpp (the one owner of the
// rule) and uploaded as tables; the kernel sums the product of each axis' taps. As CpuRef, an
// axis that maps every position to itself is not resampled (one tap, itself).
#include "kernel_sources.hpp"
#include "op_kernels.hpp"
#include "op_support.hpp"
#include "opencl_workload.hpp"

#include <backplane/backend/resampling.hpp>
#include <backplane/descriptors.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace backplane::opencl {

namespace {

// Taps per output position in the tables (resampling.hpp gives at most 4).
constexpr std::size_t kSlots = 4;
// Most tap combinations one output element may sum (the product of the axes' tap counts).
constexpr std::int64_t kMaxCombinations = 4096;

// Every axis' taps, kSlots per output position, axes one after the other.
struct TapTables {
  std::vector<cl_int> index;  // -1 in a position's first slot: extrapolated (tf_crop_and_resize)
  std::vector<float> weight;
  std::vector<std::int64_t> taps;     // per axis: the slots the kernel reads per position
  std::vector<std::int64_t> offsets;  // per axis: its first position in the tables
  std::int64_t combinations = 1;      // product of taps
};

// Whether output position x reads input position x alone (edge clamping may list it twice).
bool ReadsOnlyItself(const backend::ResampleTaps& t, std::int64_t x) {
  if (t.extrapolate) return false;
  double own = 0;
  for (int j = 0; j < t.count; ++j) {
    if (t.index[static_cast<std::size_t>(j)] == x) {
      own += t.weight[static_cast<std::size_t>(j)];
    } else if (t.weight[static_cast<std::size_t>(j)] != 0) {
      return false;
    }
  }
  return own == 1;
}

// The axis' taps, or one tap per position (itself) when the axis maps every position to itself.
void AppendAxis(const ResizeDescriptor& d, std::size_t axis, std::int64_t in, std::int64_t out, TapTables& t) {
  std::vector<backend::ResampleTaps> taps;
  bool identity = in == out;
  for (std::int64_t x = 0; x < out; ++x) {
    taps.push_back(backend::Taps(d, axis, in, x));
    identity = identity && ReadsOnlyItself(taps.back(), x);
  }
  int count = 1;
  if (!identity) {
    for (const auto& tap : taps) count = std::max(count, tap.count);
  }
  t.offsets.push_back(static_cast<std::int64_t>(t.index.size() / kSlots));
  t.taps.push_back(count);
  t.combinations *= t.taps.back();
  for (std::int64_t x = 0; x < out; ++x) {
    const backend::ResampleTaps& tap = taps[static_cast<std::size_t>(x)];
    for (std::size_t j = 0; j < kSlots; ++j) {
      const bool used = !identity && static_cast<int>(j) < tap.count;
      cl_int index = identity ? static_cast<cl_int>(x) : used ? static_cast<cl_int>(tap.index[j]) : 0;
      if (tap.extrapolate && j == 0) index = -1;
      t.index.push_back(index);
      t.weight.push_back(identity ? (j == 0 ? 1.0f : 0.0f) : used ? static_cast<float>(tap.weight[j]) : 0.0f);
    }
  }
}

// The tables of a layer whose input has no empty axis.
TapTables BuildTaps(const ResizeDescriptor& d, const TensorShape& in, const TensorShape& out) {
  TapTables t;
  for (std::size_t axis = 0; axis < in.Rank(); ++axis) AppendAxis(d, axis, in[axis], out[axis], t);
  return t;
}

class ResizeWorkload final : public OpenClWorkload {
 public:
  ResizeWorkload(const backend::ILayerView& layer, OpenClDevice& device)
      : OpenClWorkload(layer, device), kernel_(MakeKernel(device, kKernelSource_resize, "resize_taps")) {
    const auto& d = DescriptorOf<ResizeDescriptor>(layer);
    const TensorShape& in = layer.GetInputInfo(0).shape;
    const TensorShape& out = layer.GetOutputInfo(0).shape;
    count_ = static_cast<cl_int>(out.NumElements());
    rank_ = static_cast<cl_int>(in.Rank());
    extrapolation_ = d.extrapolation_value;
    out_dims_ = PackInt8(out.Dims());
    in_strides_ = PackInt8(DenseStrides(in));
    if (count_ == 0) return;  // an empty output reads nothing
    const TapTables t = BuildTaps(d, in, out);
    taps_ = PackInt8(t.taps);
    offsets_ = PackInt8(t.offsets);
    index_ = UploadBuffer(device, t.index.data(), t.index.size() * sizeof(cl_int));
    weight_ = UploadBuffer(device, t.weight.data(), t.weight.size() * sizeof(float));
  }

  void Execute(const backend::WorkloadArgs& args) const override {
    if (count_ == 0) return;
    cl_mem x = In(args, 0), y = Out(args, 0), index = index_.Get(), weight = weight_.Get();
    Launch(device_, kernel_.Get(), {static_cast<std::size_t>(count_)}, {},
           {Arg(x), Arg(y), Arg(count_), Arg(rank_), Arg(out_dims_), Arg(in_strides_), Arg(taps_), Arg(offsets_),
            Arg(index), Arg(weight), Arg(extrapolation_)},
           name_.c_str());
  }

 private:
  ClKernel kernel_;
  cl_int count_ = 0, rank_ = 0;
  cl_int8 out_dims_{}, in_strides_{}, taps_{}, offsets_{};
  ClBuffer index_, weight_;  // the tap tables (TapTables)
  float extrapolation_ = 0.0f;
};

}  // namespace

bool IsResizeSupported(const backend::ILayerView& layer, std::string& reason) {
  const TensorShape& in = layer.GetInputInfo(0).shape;
  const TensorShape& out = layer.GetOutputInfo(0).shape;
  if (!AllFitKernelIndexing({in, out}, reason)) return false;
  if (out.NumElements() == 0) return true;
  if (in.NumElements() == 0) return Fail(reason, "its input " + ToString(in) + " is empty but its output is not");
  std::int64_t positions = 0;
  for (std::size_t axis = 0; axis < out.Rank(); ++axis) positions += out[axis];
  if (positions * static_cast<std::int64_t>(kSlots) > std::numeric_limits<std::int32_t>::max()) {
    return Fail(reason, "its tap tables (" + std::to_string(positions) +
                            " output positions) are too large for GpuOpenCl's 32-bit indexing");
  }
  const TapTables t = BuildTaps(DescriptorOf<ResizeDescriptor>(layer), in, out);
  if (t.combinations > kMaxCombinations) {
    return Fail(reason, "each output element would sum " + std::to_string(t.combinations) +
                            " taps (more than " + std::to_string(kMaxCombinations) +
                            "); GpuOpenCl's resize kernel is a direct product of the axes' taps");
  }
  return true;
}

std::unique_ptr<backend::IWorkload> CreateResizeWorkload(const backend::ILayerView& layer, OpenClDevice& device) {
  return std::make_unique<ResizeWorkload>(layer, device);
}

}  // namespace backplane::opencl
