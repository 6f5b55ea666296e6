// ElementwiseBinary, f32: add, sub, mul, div, max, min, pow with numpy broadcasting
// (kernels/elementwise.cl). Equal shapes index flat (binary_same); any other broadcast walks the
// output's dimensions, collapsed where every operand is contiguous, with per-operand strides,
// 0 along broadcast dimensions (binary_broadcast, at most 8 dimensions after collapsing).
#include "kernel_sources.hpp"
#include "op_kernels.hpp"
#include "op_support.hpp"
#include "opencl_workload.hpp"

#include <backplane/backend/op_schema.hpp>
#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

namespace backplane::opencl {

namespace {

// The output's index space with size-1 dimensions dropped and neighbours that every operand
// walks contiguously merged: dims and the strides of a and b (the output is dense).
void Collapse(const TensorShape& out, const TensorShape& a, const TensorShape& b, std::vector<std::int64_t>& dims,
              std::vector<std::int64_t>& sa, std::vector<std::int64_t>& sb) {
  const auto out_strides = DenseStrides(out);
  const auto a_strides = BroadcastStrides(a, out), b_strides = BroadcastStrides(b, out);
  std::vector<std::int64_t> so;
  for (std::size_t d = 0; d < out.Rank(); ++d) {
    if (out[d] == 1) continue;
    if (!dims.empty() && sa.back() == a_strides[d] * out[d] && sb.back() == b_strides[d] * out[d] &&
        so.back() == out_strides[d] * out[d]) {
      dims.back() *= out[d];
      sa.back() = a_strides[d];
      sb.back() = b_strides[d];
      so.back() = out_strides[d];
      continue;
    }
    dims.push_back(out[d]);
    sa.push_back(a_strides[d]);
    sb.push_back(b_strides[d]);
    so.push_back(out_strides[d]);
  }
}

class BinaryWorkload final : public OpenClWorkload {
 public:
  BinaryWorkload(const backend::ILayerView& layer, OpenClDevice& device)
      : OpenClWorkload(layer, device),
        operation_(static_cast<cl_int>(DescriptorOf<ElementwiseBinaryDescriptor>(layer).operation)) {
    const TensorShape& out = layer.GetOutputInfo(0).shape;
    const TensorShape& a = layer.GetInputInfo(0).shape;
    const TensorShape& b = layer.GetInputInfo(1).shape;
    count_ = static_cast<cl_int>(out.NumElements());
    same_ = a == out && b == out;
    kernel_ = MakeKernel(device, kKernelSource_elementwise, same_ ? "binary_same" : "binary_broadcast");
    if (same_) return;
    std::vector<std::int64_t> dims, sa, sb;
    Collapse(out, a, b, dims, sa, sb);
    rank_ = static_cast<cl_int>(dims.size());
    dims_ = PackInt8(dims);
    a_strides_ = PackInt8(sa);
    b_strides_ = PackInt8(sb);
  }

  void Execute(const backend::WorkloadArgs& args) const override {
    cl_mem a = In(args, 0), b = In(args, 1), y = Out(args, 0);
    std::vector<KernelArg> kernel_args{Arg(a), Arg(b), Arg(y), Arg(count_), Arg(operation_)};
    if (!same_) {
      kernel_args.insert(kernel_args.end(), {Arg(rank_), Arg(dims_), Arg(a_strides_), Arg(b_strides_)});
    }
    Launch(device_, kernel_.Get(), {static_cast<std::size_t>(count_)}, {}, kernel_args, name_.c_str());
  }

 private:
  ClKernel kernel_;
  cl_int operation_;
  cl_int count_ = 0;
  bool same_ = false;
  cl_int rank_ = 0;
  cl_int8 dims_{}, a_strides_{}, b_strides_{};
};

}  // namespace

bool IsElementwiseBinarySupported(const backend::ILayerView& layer, std::string& reason) {
  if (DescriptorOf<ElementwiseBinaryDescriptor>(layer).operation > BinaryOperation::kPow) {
    return Fail(reason, "GpuOpenCl runs Add, Sub, Mul, Div, Max, Min and Pow (no comparison, logic, remainder or bit shift op)");
  }
  const TensorShape& out = layer.GetOutputInfo(0).shape;
  std::vector<std::int64_t> dims, sa, sb;
  Collapse(out, layer.GetInputInfo(0).shape, layer.GetInputInfo(1).shape, dims, sa, sb);
  if (dims.size() > kMaxKernelRank) {
    return Fail(reason, "the broadcast of " + ToString(layer.GetInputInfo(0).shape) + " and " +
                            ToString(layer.GetInputInfo(1).shape) + " needs " + std::to_string(dims.size()) +
                            " dimensions; GpuOpenCl walks at most " + std::to_string(kMaxKernelRank));
  }
  return FitsKernelIndexing(TensorShape{out.NumElements()}, reason);
}

std::unique_ptr<backend::IWorkload> CreateElementwiseBinaryWorkload(const backend::ILayerView& layer,
                                                                    OpenClDevice& device) {
  return std::make_unique<BinaryWorkload>(layer, device);
}

}  // namespace backplane::opencl
