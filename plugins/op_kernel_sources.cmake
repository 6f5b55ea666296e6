# The op set's kernel files of the backends that run it op by op (CpuRef, GpuOpenCl): each keeps
# one ops/<op>.cpp per op of op set v1 (Reshape's file also runs Flatten) and per op of op set v2
# that both run. The one list of them, by family; each backend adds its own shared files (op
# table, GEMM, ...). A new op is one entry here and a file in each of those backends' ops/
# folders. CpuOneDnn groups its ops by oneDNN primitive and lists its own. Included by
# plugins/CMakeLists.txt, before the backends' folders.
set(BACKPLANE_COMPUTE_OP_SOURCES
  ops/convolution2d.cpp
  ops/fully_connected.cpp
  ops/matmul.cpp
  ops/pooling2d.cpp
)
set(BACKPLANE_ELEMENTWISE_OP_SOURCES
  ops/activation.cpp
  ops/elementwise_unary.cpp
  ops/elementwise_binary.cpp
  ops/softmax.cpp
  ops/batch_normalization.cpp
  ops/layer_normalization.cpp
  ops/reduce.cpp
)
set(BACKPLANE_DATA_MOVEMENT_OP_SOURCES
  ops/reshape.cpp
  ops/transpose.cpp
  ops/concat.cpp
  ops/split.cpp
  ops/slice.cpp
  ops/gather.cpp
  ops/pad.cpp
  ops/cast.cpp
)
set(BACKPLANE_OP_SET_V2_OP_SOURCES  # op set v2's ops both run; the others are each backend's own
  ops/resize.cpp
  ops/convolution_transpose.cpp
  ops/convolution_nd.cpp
  ops/pooling_nd.cpp
)
set(BACKPLANE_OP_KERNEL_SOURCES
  ${BACKPLANE_COMPUTE_OP_SOURCES} ${BACKPLANE_ELEMENTWISE_OP_SOURCES} ${BACKPLANE_DATA_MOVEMENT_OP_SOURCES}
  ${BACKPLANE_OP_SET_V2_OP_SOURCES})
