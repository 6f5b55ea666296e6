// FuseSubgraph on views that cannot say where their inputs come from (test doubles, views of
// older runtimes): nothing is fused, every layer stays untouched. Chains on real networks are
// tested through the runtime (opencl_runtime_test.cpp, "fusion").
#include "fusion.hpp"

#include "ops/opencl_op_test_harness.hpp"

#include <backplane/descriptors.hpp>

#include <doctest/doctest.h>

TEST_CASE("fusion: layers whose producers are unknown stay untouched") {
  using backplane::opencl::testing::F32;
  const backplane::Convolution2dDescriptor conv;
  const backplane::ActivationDescriptor relu;
  const std::vector<backplane::opencl::testing::HostTensor> conv_inputs{F32({1, 2, 4, 4}, 1),
                                                                        F32({2, 2, 1, 1}, 2, true)};
  const std::vector<backplane::opencl::testing::HostTensor> relu_inputs{F32({1, 2, 4, 4}, 3)};
  const backplane::TensorInfo out{{1, 2, 4, 4}, backplane::DataType::kFloat32};
  backplane::reference::testing::TestLayer conv_layer(backplane::backend::LayerType::kConvolution2d, &conv,
                                                       conv_inputs, {out});
  backplane::reference::testing::TestLayer relu_layer(backplane::backend::LayerType::kActivation, &relu, relu_inputs,
                                                       {out});
  const auto views = backplane::opencl::FuseSubgraph({{&conv_layer, &relu_layer}});
  CHECK(views.substitutions.empty());
  REQUIRE(views.untouched.size() == 1);
  CHECK(views.untouched[0].layers.size() == 2);
}
