#include "epilogue.hpp"

#include "kernel_sources.hpp"

namespace backplane::opencl {

EpilogueKernel::EpilogueKernel(OpenClDevice& device, const Epilogue& epilogue)
    : kernel_(MakeKernel(device, kKernelSource_elementwise, "channel_epilogue")), epilogue_(epilogue) {}

void EpilogueKernel::Enqueue(OpenClDevice& device, cl_mem y, cl_mem bias, cl_mem residual, std::size_t batch,
                             std::size_t channels, std::size_t spatial, const char* what) const {
  // A null buffer is a valid argument; the flags say whether the kernel reads it.
  const cl_int has_bias = bias ? 1 : 0, has_residual = residual ? 1 : 0;
  const cl_int channel_count = static_cast<cl_int>(channels), spatial_count = static_cast<cl_int>(spatial);
  const cl_int function = epilogue_.function;
  Launch(device, kernel_.Get(), {spatial, channels, batch}, {},
         {Arg(y), Arg(bias), Arg(has_bias), Arg(residual), Arg(has_residual), Arg(channel_count), Arg(spatial_count),
          Arg(function), Arg(epilogue_.alpha), Arg(epilogue_.beta)},
         what);
}

}  // namespace backplane::opencl
