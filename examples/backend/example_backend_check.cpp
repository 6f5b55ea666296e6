// The example's test: loads CpuExample from the build tree through the public runtime API,
// places relu(a + b) * b on it alone (strict), runs it and checks every value.
#include <backplane/runtime.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <vector>

int main() {
  using namespace backplane;
  try {
    RuntimeOptions options;
    options.backend_paths = {EXAMPLE_BACKEND_DIR};
    options.enable_static_backends = false;
    const std::unique_ptr<Runtime> runtime = Runtime::Create(options);
    if (!runtime->HasBackend(BackendId("CpuExample"))) {
      std::fprintf(stderr, "CpuExample is not registered from %s\n", EXAMPLE_BACKEND_DIR);
      return 1;
    }

    Network network;
    const TensorInfo info{TensorShape{2, 3}, DataType::kFloat32};
    const OutputSlot a = network.AddInput("a", info);
    const OutputSlot b = network.AddInput("b", info);
    const OutputSlot sum = network.Add(ElementwiseBinaryDescriptor{}, {a, b}, "add");
    const OutputSlot relu = network.Add(ActivationDescriptor{}, {sum}, "relu");
    ElementwiseBinaryDescriptor mul;
    mul.operation = BinaryOperation::kMul;
    network.AddOutput("y", network.Add(mul, {relu, b}, "mul"));

    OptimizeOptions optimize;
    optimize.backends = {BackendId("CpuExample")};
    optimize.strict = true;
    const NetworkId id = runtime->LoadNetwork(runtime->Optimize(network, optimize));
    const std::unique_ptr<ExecutionContext> context = runtime->CreateExecutionContext(id);

    const std::vector<float> x = {-3, -1, 0, 1, 2, 5};
    const std::vector<float> w = {1, 2, 3, -1, 0.5f, 2};
    std::vector<float> y(6, -100.0f);
    context->Run({{"a", {info, x.data()}}, {"b", {info, w.data()}}}, {{"y", {info, y.data()}}});
    for (std::size_t i = 0; i < y.size(); ++i) {
      const float expected = std::max(x[i] + w[i], 0.0f) * w[i];
      if (std::fabs(y[i] - expected) > 1e-6f) {
        std::fprintf(stderr, "y[%zu] = %g, expected %g\n", i, y[i], expected);
        return 1;
      }
    }
    std::printf("CpuExample ran relu(a + b) * b correctly\n");
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "example_backend_check: %s\n", error.what());
    return 1;
  }
}
