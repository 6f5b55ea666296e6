// Issue 18's import benchmark: ONNX import time against model size.
//
// Chain models of N nodes (x -> Relu -> Add(., c) -> Relu -> ... -> y, alternating a unary and
// a binary op with a shared constant so both the layer and the constant paths are exercised)
// are built in memory with libonnx's protobuf classes, serialized once, and imported with
// backplane::onnx::ImportModelFromMemory for several rounds; the table shows the median import
// time per size and per node. Import must be linear in model size: the per-node column should
// stay flat from 1k to 100k nodes (target: a 100k-node chain in a few seconds).
//
//   cmake --build build --target backplane_import_bench && build/bin/backplane_import_bench
//   build/bin/backplane_import_bench --sizes 2000,10000 --rounds 3
//   build/bin/backplane_import_bench --model FILE       (one import of a model file, timed)
//   build/bin/backplane_import_bench --expand-bomb      (issue 18's hostile Expand model, timed)
#include <backplane/onnx_importer.hpp>

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <utility>
#include <string>
#include <vector>

namespace {

// A chain of `nodes` nodes over a [1, 16] f32 input.
std::string ChainModel(int nodes) {
  ::onnx::ModelProto model;
  model.set_ir_version(8);
  model.set_producer_name("import_bench");
  model.add_opset_import()->set_version(17);
  ::onnx::GraphProto* graph = model.mutable_graph();
  graph->set_name("chain");
  auto add_value = [](::onnx::ValueInfoProto* value, const std::string& name) {
    value->set_name(name);
    auto* tensor = value->mutable_type()->mutable_tensor_type();
    tensor->set_elem_type(::onnx::TensorProto::FLOAT);
    tensor->mutable_shape()->add_dim()->set_dim_value(1);
    tensor->mutable_shape()->add_dim()->set_dim_value(16);
  };
  add_value(graph->add_input(), "x");
  ::onnx::TensorProto* constant = graph->add_initializer();
  constant->set_name("c");
  constant->set_data_type(::onnx::TensorProto::FLOAT);
  constant->add_dims(16);
  for (int i = 0; i < 16; ++i) constant->add_float_data(0.5f);
  std::string previous = "x";
  for (int i = 0; i < nodes; ++i) {
    ::onnx::NodeProto* node = graph->add_node();
    const std::string output = i + 1 == nodes ? "y" : "t" + std::to_string(i);
    node->set_name("n" + std::to_string(i));
    node->add_input(previous);
    if (i % 2 == 0) {
      node->set_op_type("Relu");
    } else {
      node->set_op_type("Add");
      node->add_input("c");
    }
    node->add_output(output);
    previous = output;
  }
  add_value(graph->add_output(), "y");
  return model.SerializeAsString();
}

// Issue 18 defect 8: ConstantOfShape -> Expand to [2^28] f32 (1 GiB) -> ten Adds; folding each
// step would make ten 1 GiB constants out of a few hundred bytes.
std::string ExpandBomb() {
  ::onnx::ModelProto model;
  model.set_ir_version(8);
  model.add_opset_import()->set_version(17);
  ::onnx::GraphProto* graph = model.mutable_graph();
  auto* x = graph->add_input();
  x->set_name("x");
  x->mutable_type()->mutable_tensor_type()->set_elem_type(::onnx::TensorProto::FLOAT);
  x->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(1);
  for (const auto& [name, value] : {std::pair<const char*, std::int64_t>{"one", 1}, {"big", std::int64_t{1} << 28}}) {
    auto* tensor = graph->add_initializer();
    tensor->set_name(name);
    tensor->set_data_type(::onnx::TensorProto::INT64);
    tensor->add_dims(1);
    tensor->add_int64_data(value);
  }
  auto node = [&](const char* op, std::vector<std::string> inputs, const std::string& output) {
    auto* n = graph->add_node();
    n->set_op_type(op);
    n->set_name(output);
    for (const auto& input : inputs) n->add_input(input);
    n->add_output(output);
  };
  node("ConstantOfShape", {"one"}, "c0");
  node("Expand", {"c0", "big"}, "e0");
  for (int i = 1; i <= 10; ++i) node("Add", {"e" + std::to_string(i - 1), "c0"}, "e" + std::to_string(i));
  node("Add", {"e10", "x"}, "y");
  graph->add_output()->set_name("y");
  return model.SerializeAsString();
}

std::vector<int> ParseSizes(const char* text) {
  std::vector<int> sizes;
  std::string item;
  for (const char* p = text;; ++p) {
    if (*p == ',' || *p == '\0') {
      if (!item.empty()) sizes.push_back(std::atoi(item.c_str()));
      item.clear();
      if (*p == '\0') break;
    } else {
      item += *p;
    }
  }
  return sizes;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> sizes{1000, 10000, 100000};
  int rounds = 5;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--sizes" && i + 1 < argc) {
      sizes = ParseSizes(argv[++i]);
    } else if ((arg == "--model" && i + 1 < argc) || arg == "--expand-bomb") {
      // One import of a model: its time, and the error if it is refused.
      std::string bytes = arg == "--expand-bomb" ? ExpandBomb() : std::string();
      if (arg == "--model") {
        std::ifstream file(argv[++i], std::ios::binary);
        bytes.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
      }
      std::printf("%zu bytes\n", bytes.size());
      const auto start = std::chrono::steady_clock::now();
      int status = 0;
      try {
        backplane::onnx::ImportModelFromMemory(bytes.data(), bytes.size(), "model");
        std::printf("imported");
      } catch (const std::exception& error) {
        std::printf("refused: %s", error.what());
        status = 1;
      }
      std::printf("\n%.1f ms\n", std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
      return status;
    } else if (arg == "--rounds" && i + 1 < argc) {
      rounds = std::max(1, std::atoi(argv[++i]));
    } else {
      std::fprintf(stderr, "usage: %s [--sizes N,N,...] [--rounds R] | --model FILE | --expand-bomb\n", argv[0]);
      return 2;
    }
  }
  std::printf("%10s %10s %12s %12s\n", "nodes", "bytes", "median ms", "us/node");
  for (const int nodes : sizes) {
    const std::string bytes = ChainModel(nodes);
    std::vector<double> times;
    for (int round = 0; round < rounds; ++round) {
      const auto start = std::chrono::steady_clock::now();
      const auto imported = backplane::onnx::ImportModelFromMemory(bytes.data(), bytes.size(), "chain");
      const auto stop = std::chrono::steady_clock::now();
      if (imported.network.GetNumLayers() < static_cast<std::size_t>(nodes)) {
        std::fprintf(stderr, "chain of %d nodes imported into %zu layers\n", nodes, imported.network.GetNumLayers());
        return 1;
      }
      times.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
    }
    std::sort(times.begin(), times.end());
    const double median = times[times.size() / 2];
    std::printf("%10d %10zu %12.1f %12.2f\n", nodes, bytes.size(), median, median * 1000.0 / nodes);
    std::fflush(stdout);
  }
  return 0;
}
