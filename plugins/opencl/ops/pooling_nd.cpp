// PoolingNd (op set v2: ONNX MaxPool / AveragePool / GlobalMaxPool / GlobalAveragePool over 1
// to 3 spatial axes; networks keep Pooling2d for 2), f32: x [N, C, D...], y [N, C, O...]. One
// output per work-item (pool_nd, kernels/pooling.cl), Pooling2d's window rules on every axis
// (pooling2d.cpp), the geometry from backend/op_geometry.hpp.
#include "op_kernels.hpp"
#include "spatial_nd.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

namespace backplane::opencl {

namespace {

class PoolingNdWorkload final : public OpenClWorkload {
 public:
  PoolingNdWorkload(const backend::ILayerView& layer, OpenClDevice& device, const backend::PoolingNdGeometry& g)
      : OpenClWorkload(layer, device),
        kernel_(MakeKernel(device, kKernelSource_pooling, "pool_nd")),
        axes_(PackThreeAxes(g.axes)),
        planes_(g.batch * g.channels) {
    const auto& d = DescriptorOf<PoolingNdDescriptor>(layer);
    is_max_ = d.type == PoolingType::kMax ? 1 : 0;
    count_include_pad_ = d.count_include_pad ? 1 : 0;
  }

  void Execute(const backend::WorkloadArgs& args) const override {
    cl_mem x = In(args, 0), y = Out(args, 0);
    Launch(device_, kernel_.Get(), {static_cast<std::size_t>(axes_.out_spatial), static_cast<std::size_t>(planes_)},
           {},
           {Arg(x), Arg(y), Arg(axes_.size), Arg(axes_.out), Arg(axes_.kernel), Arg(axes_.stride),
            Arg(axes_.dilation), Arg(axes_.pad_begin), Arg(axes_.pad_end), Arg(is_max_), Arg(count_include_pad_)},
           name_.c_str());
  }

 private:
  ClKernel kernel_;
  ThreeAxes axes_;
  std::int64_t planes_;
  cl_int is_max_ = 1, count_include_pad_ = 0;
};

}  // namespace

std::unique_ptr<backend::IWorkload> CreatePoolingNdWorkload(const backend::ILayerView& layer, OpenClDevice& device) {
  backend::PoolingNdGeometry g;
  std::string reason;
  if (!backend::DescribePoolingNd(layer, g, reason)) throw Exception(ErrorCode::kUnsupported, reason);
  return std::make_unique<PoolingNdWorkload>(layer, device, g);
}

}  // namespace backplane::opencl
