// Einsum (convert_einsum.cpp) on CpuRef against a plain loop over every assignment of the
// letters: implicit and explicit outputs, ellipsis with broadcasting, diagonals, sums, one to
// three operands. Small integers, so every sum is exact.
#include "model_builder.hpp"

#include <backplane/exception.hpp>

#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

namespace {

using backplane::DataType;
using backplane::Exception;
using backplane::NpyArray;
using backplane::TensorShape;
using namespace backplane::onnx::testing;

using Dims = std::vector<std::int64_t>;

// Integers in [-5, 5], different per `seed`.
std::vector<float> Values(std::int64_t n, int seed) {
  std::vector<float> values;
  for (std::int64_t k = 0; k < n; ++k) values.push_back(static_cast<float>((k * 7 + seed * 3) % 11 - 5));
  return values;
}

// One operand as the reference reads it: a letter per axis (ellipsis written out), its shape.
struct Operand {
  std::string letters;
  Dims dims;
};

// out[output letters] = sum over the other letters of the product of the operands; an axis of
// length 1 broadcasts (index 0).
std::vector<float> Reference(const std::vector<Operand>& operands, const std::string& output) {
  std::map<char, std::int64_t> lengths;
  for (const auto& o : operands) {
    for (std::size_t a = 0; a < o.letters.size(); ++a)
      lengths[o.letters[a]] = std::max(lengths[o.letters[a]], o.dims[a]);
  }
  std::vector<char> letters;
  for (const auto& [l, n] : lengths) letters.push_back(l);
  Dims out_dims;
  for (const char l : output) out_dims.push_back(lengths[l]);
  std::vector<float> out(static_cast<std::size_t>(TensorShape(out_dims).NumElements()), 0.0f);
  std::map<char, std::int64_t> at;
  for (const char l : letters) at[l] = 0;
  for (bool more = true; more;) {
    float product = 1;
    for (std::size_t i = 0; i < operands.size(); ++i) {
      std::int64_t offset = 0;
      for (std::size_t a = 0; a < operands[i].letters.size(); ++a) {
        const std::int64_t n = operands[i].dims[a];
        offset = offset * n + (n == 1 ? 0 : at[operands[i].letters[a]]);
      }
      product *=
          Values(TensorShape(operands[i].dims).NumElements(), static_cast<int>(i))[static_cast<std::size_t>(offset)];
    }
    std::int64_t position = 0;
    for (const char l : output) position = position * lengths[l] + at[l];
    out[static_cast<std::size_t>(position)] += product;
    more = false;
    for (auto l = letters.rbegin(); l != letters.rend() && !more; ++l) {
      more = ++at[*l] < lengths[*l];
      if (!more) at[*l] = 0;
    }
  }
  return out;
}

// The Einsum node for `equation` over operands of the given shapes (graph inputs x0, x1, ...),
// run on CpuRef: its output.
NpyArray RunEinsum(const std::string& equation, const std::vector<Operand>& operands) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < operands.size(); ++i) names.push_back("x" + std::to_string(i));
  ::onnx::NodeProto* node = nullptr;
  auto model = OneNode(12, "Einsum", names, {"y"}, node);
  AddString(*node, "equation", equation);
  std::map<std::string, NpyArray> inputs;
  for (std::size_t i = 0; i < operands.size(); ++i) {
    SetTensorType(*model.mutable_graph()->add_input(), names[i], ::onnx::TensorProto::FLOAT, operands[i].dims);
    inputs[names[i]] = Array<float>(DataType::kFloat32, TensorShape(operands[i].dims),
                                    Values(TensorShape(operands[i].dims).NumElements(), static_cast<int>(i)));
  }
  return Run(model, inputs).at("y");
}

void CheckEinsum(const std::string& equation, const std::vector<Operand>& operands, const std::string& output,
                 const Dims& output_dims) {
  INFO(equation);
  const NpyArray y = RunEinsum(equation, operands);
  CHECK(y.shape == TensorShape(output_dims));
  CHECK(Floats(y) == Reference(operands, output));
}

}  // namespace

TEST_CASE("Einsum: one operand (transpose, sums, trace, diagonals)") {
  CheckEinsum("ij->ji", {{"ij", {2, 3}}}, "ji", {3, 2});
  CheckEinsum("ji", {{"ji", {2, 3}}}, "ij", {3, 2});  // implicit: letters in alphabetical order
  CheckEinsum("ij->i", {{"ij", {3, 4}}}, "i", {3});
  CheckEinsum("ij->", {{"ij", {3, 4}}}, "", {});
  CheckEinsum("ii", {{"ii", {3, 3}}}, "", {});  // a letter used twice is summed: the trace
  CheckEinsum("...ii->...i", {{"aii", {2, 3, 3}}}, "ai", {2, 3});
  CheckEinsum("iji->ij", {{"iji", {3, 2, 3}}}, "ij", {3, 2});
  CheckEinsum("ijji->ij", {{"ijji", {2, 3, 3, 2}}}, "ij", {2, 3});  // two letters repeated
}

TEST_CASE("Einsum: two operands (products, batch axes, outer product, diagonal with a product)") {
  CheckEinsum("ij,jk", {{"ij", {2, 3}}, {"jk", {3, 4}}}, "ik", {2, 4});
  CheckEinsum("bij, bjk -> bik", {{"bij", {2, 2, 3}}, {"bjk", {2, 3, 4}}}, "bik", {2, 2, 4});
  CheckEinsum("i,i", {{"i", {5}}, {"i", {5}}}, "", {});
  CheckEinsum("i,j->ij", {{"i", {2}}, {"j", {3}}}, "ij", {2, 3});
  CheckEinsum("bii,bi->b", {{"bii", {2, 3, 3}}, {"bi", {2, 3}}}, "b", {2});
  CheckEinsum("ik,jk->kji", {{"ik", {2, 3}}, {"jk", {4, 3}}}, "kji", {3, 4, 2});
}

TEST_CASE("Einsum: ellipsis axes broadcast, three operands contract left to right") {
  CheckEinsum("...ij,...jk->...ik", {{"abij", {2, 1, 2, 3}}, {"bjk", {3, 3, 4}}}, "abik", {2, 3, 2, 4});
  CheckEinsum("ij,jk,kl->il", {{"ij", {2, 3}}, {"jk", {3, 4}}, {"kl", {4, 2}}}, "il", {2, 2});
  CheckEinsum("i,i,i->", {{"i", {4}}, {"i", {4}}, {"i", {4}}}, "", {});
}

TEST_CASE("Einsum: a malformed equation is a model error naming it") {
  const auto refused = [](const std::string& equation, const std::vector<Operand>& operands) {
    try {
      RunEinsum(equation, operands);
    } catch (const Exception& error) {
      return std::string(error.what());
    }
    return std::string("nothing thrown");
  };
  CHECK(refused("ij,jk->ik", {{"ij", {2, 3}}}).find("has 2 input terms for 1 inputs") != std::string::npos);
  CHECK(refused("ijk->i", {{"ij", {2, 3}}}).find("does not fit input 0 of rank 2") != std::string::npos);
  CHECK(refused("...->", {{"ij", {2, 3}}}).find("has no '...' for the inputs' ellipsis axes") != std::string::npos);
  CHECK(refused("ij->iz", {{"ij", {2, 3}}}).find("names a letter twice or one no input has") != std::string::npos);
  CHECK(refused("ij,jk->ik", {{"ij", {2, 3}}, {"jk", {4, 2}}}).find("has length 4, another use of its letter 3") !=
        std::string::npos);
}
