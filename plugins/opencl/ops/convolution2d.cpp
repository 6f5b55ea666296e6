// Convolution2d, f32, NCHW: x [N, C, H, W], weights [M, C/groups, kH, kW], optional bias [M].
//
// Strategy: im2col + GEMM (gemm.hpp). Per image, im2col (kernels/convolution.cl, in the shape
// the device kind runs best) writes the columns [C*kH*kW, Ho*Wo] into the device's column
// scratch (a 1x1 convolution with unit strides and no padding reads x itself), then one GEMM
// per group - weights [M/groups, C/groups*kH*kW] times that group's columns - writes y (a
// strided-batched GEMM over the groups). The bias, and a fused layer's residual and
// activation, are added by the epilogue kernel (epilogue.hpp) after the last image. The whole
// sequence is enqueued under the device's LaunchMutex, so concurrent runs never share the
// column scratch. Depthwise convolutions (one input channel per group, where each GEMM would be
// one row high) run conv_direct, one output per work-item, with the bias; the epilogue follows
// only for a fused layer.
#include "epilogue.hpp"
#include "gemm.hpp"
#include "kernel_sources.hpp"
#include "op_kernels.hpp"
#include "op_support.hpp"
#include "opencl_workload.hpp"

#include <backplane/backend/op_geometry.hpp>
#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

#include <limits>
#include <optional>
#include <string>

namespace backplane::opencl {

namespace {

using backend::ConvGeometry;

bool IsDepthwise(const ConvGeometry& g) { return g.channels / g.groups == 1 && g.groups > 1; }

// The columns are x itself: a 1x1 kernel read at every pixel.
bool IsPointwise(const ConvGeometry& g) {
  return g.kernel_h == 1 && g.kernel_w == 1 && g.stride_h == 1 && g.stride_w == 1 && g.pad_top == 0 &&
         g.pad_left == 0 && g.out_height == g.height && g.out_width == g.width;
}

// The GEMM of one image: per group, weights [M/groups, K] times columns [K, Ho*Wo].
GemmCall ImageGemm(const ConvGeometry& g) {
  const auto z = [](std::int64_t v) { return static_cast<std::size_t>(v); };
  const std::size_t spatial = z(g.out_height * g.out_width);
  const std::size_t group_out = z(g.out_channels / g.groups);
  const std::size_t k = z(g.channels / g.groups * g.kernel_h * g.kernel_w);
  GemmCall call;
  call.m = group_out;
  call.n = spatial;
  call.k = k;
  call.a_ld = k;
  call.a_stride = group_out * k;
  call.b_ld = spatial;
  call.b_stride = k * spatial;
  call.y_ld = spatial;
  call.y_stride = group_out * spatial;
  call.batch = z(g.groups);
  return call;
}

class Convolution2dWorkload final : public OpenClWorkload {
 public:
  Convolution2dWorkload(const backend::ILayerView& layer, OpenClDevice& device, const ConvGeometry& g,
                        const Epilogue& epilogue)
      : OpenClWorkload(layer, device), g_(g), has_bias_(layer.GetNumInputs() == 3), epilogue_(epilogue) {
    if (IsDepthwise(g_)) {
      implementation_ = device.CpuKernels() ? "conv_direct_rows" : "conv_direct";
      direct_ = MakeKernel(device, kKernelSource_convolution, implementation_.c_str());
    } else {
      gemm_.emplace(device, ImageGemm(g_), name_);
      implementation_ = gemm_->Describe(ImageGemm(g_).batch);
      if (!IsPointwise(g_)) {
        const char* im2col = device.CpuKernels() ? "im2col_rows" : "im2col";
        im2col_ = MakeKernel(device, kKernelSource_convolution, im2col);
        implementation_ = im2col + (" + " + implementation_);
      }
    }
    if (!epilogue.Empty() || (has_bias_ && !direct_.Get())) epilogue_kernel_ = EpilogueKernel(device, epilogue);
  }

  backend::WorkloadInfo GetInfo() const override { return {implementation_, ""}; }

  void Execute(const backend::WorkloadArgs& args) const override {
    cl_mem x = In(args, 0), w = In(args, 1), y = Out(args, 0);
    const auto i = [](std::int64_t v) { return static_cast<cl_int>(v); };
    const cl_int c = i(g_.channels), h = i(g_.height), wd = i(g_.width), m = i(g_.out_channels), kh = i(g_.kernel_h),
                 kw = i(g_.kernel_w), ho = i(g_.out_height), wo = i(g_.out_width), sh = i(g_.stride_h),
                 sw = i(g_.stride_w), dh = i(g_.dilation_h), dw = i(g_.dilation_w), pt = i(g_.pad_top),
                 pl = i(g_.pad_left);
    const auto batch = static_cast<std::size_t>(g_.batch);
    const auto spatial = static_cast<std::size_t>(g_.out_height * g_.out_width);
    if (direct_.Get()) {
      cl_mem bias = has_bias_ ? In(args, 2) : w;
      const cl_int has_bias = has_bias_ ? 1 : 0, groups = i(g_.groups), cg = i(g_.channels / g_.groups);
      const auto columns = static_cast<std::size_t>(g_.out_width), rows = static_cast<std::size_t>(g_.out_height);
      const std::size_t planes = batch * static_cast<std::size_t>(g_.out_channels);
      Launch(device_, direct_.Get(),
             device_.CpuKernels() ? std::vector<std::size_t>{rows, planes}
                                  : std::vector<std::size_t>{columns, rows, planes},
             {},
             {Arg(x), Arg(w), Arg(bias), Arg(has_bias), Arg(y), Arg(c), Arg(h), Arg(wd), Arg(m), Arg(groups), Arg(cg),
              Arg(kh), Arg(kw), Arg(ho), Arg(wo), Arg(sh), Arg(sw), Arg(dh), Arg(dw), Arg(pt), Arg(pl)},
             name_.c_str());
      if (epilogue_kernel_) {
        epilogue_kernel_.Enqueue(device_, y, nullptr, InIfAny(args, epilogue_.residual), batch,
                                 static_cast<std::size_t>(g_.out_channels), spatial, name_.c_str());
      }
      return;
    }
    const std::size_t rows = static_cast<std::size_t>(g_.channels * g_.kernel_h * g_.kernel_w);
    const std::size_t image_in = static_cast<std::size_t>(g_.channels * g_.height * g_.width);
    GemmCall call = ImageGemm(g_);
    call.a = w;
    // The column scratch is shared by every workload of the device: held from im2col to GEMM.
    std::lock_guard<std::recursive_mutex> lock(device_.LaunchMutex());
    cl_mem cols = im2col_.Get() ? device_.ScratchBuffer(OpenClDevice::Scratch::kColumns, rows * spatial * sizeof(float))
                                : nullptr;
    for (std::size_t image = 0; image < batch; ++image) {
      if (im2col_.Get()) {
        const cl_int x_offset = static_cast<cl_int>(image * image_in), row_count = static_cast<cl_int>(rows);
        Launch(device_, im2col_.Get(),
               device_.CpuKernels() ? std::vector<std::size_t>{static_cast<std::size_t>(g_.out_height), rows}
                                    : std::vector<std::size_t>{spatial, rows},
               {},
               {Arg(x), Arg(x_offset), Arg(cols), Arg(h), Arg(wd), Arg(kh), Arg(kw), Arg(ho), Arg(wo), Arg(sh), Arg(sw),
                Arg(dh), Arg(dw), Arg(pt), Arg(pl), Arg(row_count)},
               name_.c_str());
        call.b = cols;
        call.b_offset = 0;
      } else {
        call.b = x;
        call.b_offset = image * image_in;
      }
      call.y = y;
      call.y_offset = image * static_cast<std::size_t>(g_.out_channels) * spatial;
      gemm_->Enqueue(call);
    }
    if (epilogue_kernel_) {
      epilogue_kernel_.Enqueue(device_, y, has_bias_ ? In(args, 2) : nullptr, InIfAny(args, epilogue_.residual), batch,
                               static_cast<std::size_t>(g_.out_channels), spatial, name_.c_str());
    }
  }

 private:
  ConvGeometry g_;
  bool has_bias_;
  Epilogue epilogue_;
  ClKernel direct_;                 // depthwise layers only
  std::optional<Gemm> gemm_;        // every other layer
  ClKernel im2col_;                 // unless pointwise
  std::string implementation_;      // the kernels, for profiles: "im2col + CLBlast GEMM", "conv_direct"
  EpilogueKernel epilogue_kernel_;  // bias after a GEMM, a fused layer's residual and activation
};

}  // namespace

bool IsConvolution2dSupported(const backend::ILayerView& layer, std::string& reason) {
  if (!AllFitKernelIndexing(
          {layer.GetInputInfo(0).shape, layer.GetOutputInfo(0).shape, layer.GetInputInfo(1).shape}, reason)) {
    return false;
  }
  ConvGeometry g{};
  if (!backend::DescribeConvolution(layer, g, reason)) return false;
  if (IsDepthwise(g) || IsPointwise(g)) return true;
  const std::int64_t rows = g.channels * g.kernel_h * g.kernel_w, spatial = g.out_height * g.out_width;
  if (rows * spatial > std::numeric_limits<std::int32_t>::max()) {
    return Fail(reason, "its im2col columns [" + std::to_string(rows) + ", " + std::to_string(spatial) +
                            "] have 2^31 or more elements; GpuOpenCl kernels index with 32-bit integers");
  }
  return true;
}

std::unique_ptr<backend::IWorkload> CreateConvolution2dWorkload(const backend::ILayerView& layer, OpenClDevice& device,
                                                                const Epilogue& epilogue) {
  ConvGeometry g{};
  std::string reason;
  if (!backend::DescribeConvolution(layer, g, reason)) throw Exception(ErrorCode::kUnsupported, reason);
  return std::make_unique<Convolution2dWorkload>(layer, device, g, epilogue);
}

std::unique_ptr<backend::IWorkload> CreateConvolution2dWorkload(const backend::ILayerView& layer,
                                                                OpenClDevice& device) {
  return CreateConvolution2dWorkload(layer, device, Epilogue{});
}

}  // namespace backplane::opencl
