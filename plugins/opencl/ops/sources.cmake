# The GpuOpenCl op kernels, included by ../CMakeLists.txt (paths relative to plugins/opencl).
set(OPENCL_OP_SOURCES
  ops/op_table.cpp
  ops/op_support.cpp
  ops/opencl_workload.cpp
  ops/gemm.cpp
  ops/epilogue.cpp
  ops/strided_copy.cpp
  ${BACKPLANE_OP_KERNEL_SOURCES}  # one file per op (../../op_kernel_sources.cmake)
)
set(OPENCL_KERNEL_FILES
  kernels/convolution.cl
  kernels/convolution_nd.cl
  kernels/resize.cl
  kernels/gemm.cl
  kernels/elementwise.cl
  kernels/pooling.cl
  kernels/normalization.cl
  kernels/data_movement.cl
)

# The op tests compare every op with CpuRef's, run through CpuRef's own workloads, so they
# need the reference op library (plugins/reference, configured before this folder). Linked
# once the test target exists, at the end of this folder's configuration.
set(OPENCL_OP_TESTS "")
if(BACKPLANE_BUILD_TESTS AND TARGET backplane_reference_ops)
  set(OPENCL_OP_TESTS
    ops/op_table_test.cpp
    ops/convolution2d_test.cpp
    ops/gemm_test.cpp
    ops/pooling2d_test.cpp
    ops/resize_test.cpp
    ops/spatial_nd_test.cpp
    ops/elementwise_test.cpp
    ops/normalization_test.cpp
    ops/data_movement_test.cpp
    fusion_test.cpp
  )
  function(_opencl_ops_link_reference)
    if(TARGET backplane_opencl_test)
      target_link_libraries(backplane_opencl_test PRIVATE backplane_reference_ops)
    endif()
  endfunction()
  cmake_language(DEFER CALL _opencl_ops_link_reference)
elseif(BACKPLANE_BUILD_TESTS)
  message(STATUS "GpuOpenCl op tests skipped: they compare with CpuRef's ops (BACKPLANE_BACKEND_REFERENCE=OFF)")
endif()
