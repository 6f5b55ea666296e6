// Recurrent (ONNX RNN, GRU and LSTM, time-major) as one oneDNN RNN primitive: lstm_forward (with
// peepholes), gru_forward, lbr_gru_forward (linear_before_reset) and vanilla_rnn_forward over all
// T steps and both directions (bidirectional_concat). What those primitives compute is ONNX's
// cell with its default functions and no clip, so only that form is taken (IsRecurrentSupported
// names what is not; CpuRef runs the rest): LSTM sigmoid, tanh, tanh; GRU sigmoid, tanh; RNN one
// of tanh, relu, sigmoid for every direction; no clip, no input_forget, sequence_lens only as a
// constant of T; constant W, R, B and P.
//
// Weights are reordered once at creation from ONNX's [D, G*H, I] / [D, G*H, H] with gates i, o,
// f, c (LSTM) to oneDNN's ldigo with gates i, f, c, o (GRU's z, r, h are oneDNN's u, r, o); the bias is Wb + Rb per gate (lbr_gru: Rb_h apart, as its
// fourth gate). The states [D, B, H] are oneDNN's [1, D, B, H] as they are; Y [T, D, B, H] is
// dst_layer for one direction, and for two is copied out of dst_layer [T, B, 2H] (forward's H
// first) in scratch.
#include "onednn_ops.hpp"

#include "primitive_workload.hpp"
#include "../dnnl_compat.hpp"
#include "../dnnl_desc.hpp"
#include "../onednn_tensor_handle.hpp"

#include <backplane/backend/op_geometry.hpp>
#include <backplane/exception.hpp>

#include <algorithm>
#include <cstring>
#include <unordered_map>
#include <vector>

namespace backplane::onednn {

namespace {

using dnnl::memory;
using Tag = memory::format_tag;
constexpr auto kF32 = memory::data_type::f32;

// The ONNX inputs, as the layer numbers them.
enum Input : std::size_t { kX, kW, kR, kB, kLengths, kInitialH, kInitialC, kPeephole };

// ONNX's gate of oneDNN's gate position g (LSTM: oneDNN i, f, c, o; ONNX i, o, f, c. GRU and RNN:
// the same order).
std::int64_t OnnxGate(RecurrentCell cell, std::int64_t g) {
  static const std::int64_t kLstm[] = {0, 2, 3, 1};
  return cell == RecurrentCell::kLstm ? kLstm[g] : g;
}

// The functions oneDNN's primitives apply (vanilla RNN: its activation for `f`).
bool HasOneDnnFunctions(const RecurrentDescriptor& d, std::size_t per_direction, std::string& reason) {
  using A = RecurrentActivation;
  std::vector<A> expected;
  if (d.cell == RecurrentCell::kLstm) expected = {A::kSigmoid, A::kTanh, A::kTanh};
  if (d.cell == RecurrentCell::kGru) expected = {A::kSigmoid, A::kTanh};
  for (std::size_t i = 0; i < d.activations.size(); ++i) {
    const auto f = static_cast<A>(d.activations[i]);
    const bool ok = d.cell == RecurrentCell::kRnn
                        ? (f == A::kTanh || f == A::kRelu || f == A::kSigmoid) && d.activations[i] == d.activations[0]
                        : f == expected[i % per_direction];
    if (!ok) {
      reason = "oneDNN's RNN primitives apply the default activations only (LSTM sigmoid, tanh, tanh; GRU sigmoid, "
               "tanh; RNN tanh, relu or sigmoid, one for both directions)";
      return false;
    }
  }
  return true;
}

// Whether sequence_lens (a constant, or null when computed at run time) is T for every entry: what
// the ONNX importer gives for a model that has initial states but no sequence_lens.
bool AllLengthsAreT(const std::int32_t* lengths, const backend::RecurrentGeometry& g) {
  return lengths && std::all_of(lengths, lengths + g.batch, [&](std::int32_t n) { return n == g.steps; });
}

dnnl::algorithm RnnActivation(const RecurrentDescriptor& d) {
  switch (static_cast<RecurrentActivation>(d.activations[0])) {
    case RecurrentActivation::kRelu: return dnnl::algorithm::eltwise_relu;
    case RecurrentActivation::kSigmoid: return dnnl::algorithm::eltwise_logistic;
    default: return dnnl::algorithm::eltwise_tanh;
  }
}

dnnl::rnn_direction DirectionOf(RecurrentDirection direction) {
  switch (direction) {
    case RecurrentDirection::kReverse: return dnnl::rnn_direction::unidirectional_right2left;
    case RecurrentDirection::kBidirectional: return dnnl::rnn_direction::bidirectional_concat;
    default: return dnnl::rnn_direction::unidirectional_left2right;
  }
}

// Immutable after construction; Execute is thread-safe (dst_layer of two directions and the
// primitive's scratchpad live in the run's scratch; memory objects are made per run).
class RecurrentWorkload final : public backend::IWorkload {
 public:
  RecurrentWorkload(const OpSpec& spec, const backend::RecurrentGeometry& g, ExecutionSettingsPtr execution)
      : name_(spec.name), g_(g), execution_(std::move(execution)) {
    const auto& d = static_cast<const RecurrentDescriptor&>(*spec.descriptor);
    const memory::dim steps = g.steps, batch = g.batch, in = g.input, hidden = g.hidden, nd = g.directions;
    const memory::dim gates = g.gates, bias_gates = d.linear_before_reset ? 4 : gates;
    const memory::dims state{1, nd, batch, hidden};
    compat::RnnDescs descs;
    descs.src_layer = memory::desc({steps, batch, in}, kF32, Tag::tnc);
    descs.dst_layer = memory::desc({steps, batch, nd * hidden}, kF32, Tag::tnc);
    descs.dst_iter = memory::desc(state, kF32, Tag::ldnc);
    if (g.has_initial_h) descs.src_iter = descs.dst_iter;
    if (g.gates == 4) {
      descs.dst_iter_c = descs.dst_iter;
      if (g.has_initial_c) descs.src_iter_c = descs.dst_iter;
    }
    // Plain ldigo weights, not `any`: with `any` oneDNN 2.6 picks its brgemm LSTM kernel, which ran
    // the batch-1 lstm_tagger (H 256, T 128) 4x slower than the gemm kernel it takes for ldigo
    // (38 vs 9.5 ms; GRU, where `any` already gives the gemm kernel, is the same either way).
    descs.weights_layer = memory::desc({1, nd, in, gates, hidden}, kF32, Tag::ldigo);
    descs.weights_iter = memory::desc({1, nd, hidden, gates, hidden}, kF32, Tag::ldigo);
    descs.bias = memory::desc({1, nd, bias_gates, hidden}, kF32, Tag::ldgo);
    if (g.has_peephole) descs.weights_peephole = memory::desc({1, nd, 3, hidden}, kF32, Tag::ldgo);
    const dnnl::primitive_attr attr = execution_->Attr();
    const dnnl::rnn_direction direction = DirectionOf(d.direction);
    const dnnl::engine& engine = execution_->engine;
    memory::desc weights_layer, weights_iter;
    if (d.cell == RecurrentCell::kLstm) {
      Take<dnnl::lstm_forward>(compat::Lstm(engine, direction, descs, attr), "lstm_forward", weights_layer, weights_iter);
    } else if (d.cell == RecurrentCell::kGru && d.linear_before_reset) {
      Take<dnnl::lbr_gru_forward>(compat::Gru<dnnl::lbr_gru_forward>(engine, direction, descs, attr), "lbr_gru_forward",
                                  weights_layer, weights_iter);
    } else if (d.cell == RecurrentCell::kGru) {
      Take<dnnl::gru_forward>(compat::Gru<dnnl::gru_forward>(engine, direction, descs, attr), "gru_forward",
                              weights_layer, weights_iter);
    } else {
      Take<dnnl::vanilla_rnn_forward>(compat::VanillaRnn(engine, RnnActivation(d), direction, descs, attr),
                                      "vanilla_rnn_forward", weights_layer, weights_iter);
    }
    descs_ = descs;
    scratchpad_bytes_ = scratchpad_.get_size();
    dst_layer_bytes_ = nd == 2 ? static_cast<std::size_t>(steps * batch * nd * hidden) * sizeof(float) : 0;
    dnnl::stream stream(engine);
    weights_layer_ = Packed(stream, Gates(spec, kW, in, d.cell), {1, nd, in, gates, hidden}, weights_layer);
    weights_iter_ = Packed(stream, Gates(spec, kR, hidden, d.cell), {1, nd, hidden, gates, hidden}, weights_iter);
    bias_ = Bias(spec, d, bias_gates);
    if (g.has_peephole) peephole_ = Peephole(spec);
    stream.wait();
  }

  std::size_t GetScratchSize() const override { return Aligned(scratchpad_bytes_) + dst_layer_bytes_; }
  backend::WorkloadInfo GetInfo() const override { return {implementation_, ""}; }

  void Execute(const backend::WorkloadArgs& args) const override {
    const ExecuteThreads threads(*execution_);
    const RunPool::Lease lease(*execution_->runs, execution_->engine);
    dnnl::stream& stream = (*lease).stream;
    const dnnl::engine& engine = execution_->engine;
    auto* scratch = static_cast<std::uint8_t*>(args.scratch);
    auto in = [&](std::size_t i) { return const_cast<void*>(static_cast<const void*>(args.inputs.at(i)->Map())); };
    float* y = Written(args, 0, {g_.steps, g_.directions, g_.batch, g_.hidden});
    void* dst_layer = dst_layer_bytes_ ? static_cast<void*>(scratch + Aligned(scratchpad_bytes_)) : y;
    const memory::dims state_dims{g_.directions, g_.batch, g_.hidden};
    std::unordered_map<int, memory> bound{
        {DNNL_ARG_SRC_LAYER, memory(descs_.src_layer, engine, in(kX))},
        {DNNL_ARG_WEIGHTS_LAYER, weights_layer_},
        {DNNL_ARG_WEIGHTS_ITER, weights_iter_},
        {DNNL_ARG_BIAS, bias_},
        {DNNL_ARG_DST_LAYER, memory(descs_.dst_layer, engine, dst_layer)},
        {DNNL_ARG_DST_ITER, memory(descs_.dst_iter, engine, Written(args, 1, state_dims))},
        {DNNL_ARG_SCRATCHPAD, memory(scratchpad_, engine, scratch)},
    };
    if (g_.has_initial_h) bound.emplace(DNNL_ARG_SRC_ITER, memory(descs_.src_iter, engine, in(kInitialH)));
    if (g_.gates == 4) {
      bound.emplace(DNNL_ARG_DST_ITER_C, memory(descs_.dst_iter_c, engine, Written(args, 2, state_dims)));
      if (g_.has_initial_c) bound.emplace(DNNL_ARG_SRC_ITER_C, memory(descs_.src_iter_c, engine, in(kInitialC)));
      if (g_.has_peephole) bound.emplace(DNNL_ARG_WEIGHTS_PEEPHOLE, peephole_);
    }
    try {
      primitive_.execute(stream, bound);
      stream.wait();
    } catch (const dnnl::error& error) {
      throw Exception(ErrorCode::kInternal, "layer '" + name_ + "': oneDNN RNN failed: " + error.what());
    }
    if (dst_layer_bytes_) SplitDirections(static_cast<const float*>(dst_layer), y);
  }

 private:
  static std::size_t Aligned(std::size_t bytes) { return (bytes + 63) / 64 * 64; }

  // Output i's dense bytes (`dims`), to be written now.
  static float* Written(const backend::WorkloadArgs& args, std::size_t i, const memory::dims& dims) {
    backend::ITensorHandle* out = args.outputs.at(i);
    auto* ours = dynamic_cast<OneDnnTensorHandle*>(out);
    return static_cast<float*>(ours ? ours->PrepareWrite(PlainDesc(dims)) : out->Map());
  }

  // The primitive of `pd`, what it is for GetInfo, and the weights layouts it picked.
  template <typename Primitive>
  void Take(const typename Primitive::primitive_desc& pd, const char* what, memory::desc& weights_layer,
            memory::desc& weights_iter) {
    primitive_ = Primitive(pd);
    weights_layer = pd.weights_layer_desc();
    weights_iter = pd.weights_iter_desc();
    scratchpad_ = pd.scratchpad_desc();
    implementation_ = std::string(what) + " " + pd.impl_info_str();
  }

  // Y [T, 2, B, H] from dst_layer [T, B, 2H].
  void SplitDirections(const float* dst, float* y) const {
    const std::int64_t hidden = g_.hidden;
    for (std::int64_t t = 0; t < g_.steps; ++t) {
      for (std::int64_t d = 0; d < 2; ++d) {
        for (std::int64_t b = 0; b < g_.batch; ++b) {
          const float* from = dst + ((t * g_.batch + b) * 2 + d) * hidden;
          std::copy(from, from + hidden, y + ((t * 2 + d) * g_.batch + b) * hidden);
        }
      }
    }
  }

  // W or R ([D, G*H, K], ONNX's gates) as ldigo [1, D, K, G, H] in oneDNN's gate order.
  std::vector<float> Gates(const OpSpec& spec, std::size_t input, std::int64_t k, RecurrentCell cell) const {
    const auto* onnx = static_cast<const float*>(spec.inputs[input].constant);
    const std::int64_t hidden = g_.hidden, gates = g_.gates;
    std::vector<float> out(static_cast<std::size_t>(g_.directions * k * gates * hidden));
    for (std::int64_t d = 0; d < g_.directions; ++d) {
      for (std::int64_t i = 0; i < k; ++i) {
        for (std::int64_t g = 0; g < gates; ++g) {
          const std::int64_t row = OnnxGate(cell, g) * hidden;
          for (std::int64_t h = 0; h < hidden; ++h) {
            out[static_cast<std::size_t>(((d * k + i) * gates + g) * hidden + h)] =
                onnx[(d * gates * hidden + row + h) * k + i];
          }
        }
      }
    }
    return out;
  }

  // `plain` (ldigo) reordered into `packed`, the primitive's layout.
  memory Packed(dnnl::stream& stream, std::vector<float> plain, const memory::dims& dims,
                const memory::desc& packed) const {
    memory source(memory::desc(dims, kF32, Tag::ldigo), execution_->engine, plain.data());
    memory target(packed, execution_->engine);
    dnnl::reorder(source, target).execute(stream, source, target);
    stream.wait();  // `plain` goes out of scope
    return target;
  }

  // [1, D, G (+1 for lbr_gru), H]: Wb + Rb per gate (lbr_gru: Wb_h, then Rb_h as the fourth);
  // zeros without B.
  memory Bias(const OpSpec& spec, const RecurrentDescriptor& d, std::int64_t bias_gates) const {
    const std::int64_t hidden = g_.hidden, gates = g_.gates, gh = gates * hidden;
    memory bias(memory::desc({1, g_.directions, bias_gates, hidden}, kF32, Tag::ldgo), execution_->engine);
    auto* out = static_cast<float*>(bias.get_data_handle());
    std::fill(out, out + g_.directions * bias_gates * hidden, 0.0f);
    if (!g_.has_bias) return bias;
    const auto* b = static_cast<const float*>(spec.inputs[kB].constant);
    for (std::int64_t dir = 0; dir < g_.directions; ++dir) {
      const float* wb = b + dir * 2 * gh;
      const float* rb = wb + gh;
      float* o = out + dir * bias_gates * hidden;
      for (std::int64_t g = 0; g < gates; ++g) {
        const std::int64_t from = OnnxGate(d.cell, g) * hidden;
        const bool apart = d.linear_before_reset && g == 2;  // Rb_h goes inside the reset gate's product
        for (std::int64_t h = 0; h < hidden; ++h) o[g * hidden + h] = wb[from + h] + (apart ? 0.0f : rb[from + h]);
      }
      if (d.linear_before_reset) std::copy(rb + 2 * hidden, rb + 3 * hidden, o + 3 * hidden);
    }
    return bias;
  }

  // [1, D, 3, H] with oneDNN's i, f, o from ONNX's P [D, 3H] = Pi, Po, Pf.
  memory Peephole(const OpSpec& spec) const {
    const std::int64_t hidden = g_.hidden;
    memory peephole(memory::desc({1, g_.directions, 3, hidden}, kF32, Tag::ldgo), execution_->engine);
    auto* out = static_cast<float*>(peephole.get_data_handle());
    const auto* p = static_cast<const float*>(spec.inputs[kPeephole].constant);
    static const std::int64_t kOnnx[] = {0, 2, 1};  // i, f, o
    for (std::int64_t d = 0; d < g_.directions; ++d) {
      for (std::int64_t g = 0; g < 3; ++g) {
        std::copy(p + (d * 3 + kOnnx[g]) * hidden, p + (d * 3 + kOnnx[g] + 1) * hidden, out + (d * 3 + g) * hidden);
      }
    }
    return peephole;
  }

  std::string name_;
  backend::RecurrentGeometry g_;
  ExecutionSettingsPtr execution_;
  dnnl::primitive primitive_;
  compat::RnnDescs descs_;
  memory::desc scratchpad_;
  memory weights_layer_, weights_iter_, bias_, peephole_;
  std::size_t scratchpad_bytes_ = 0, dst_layer_bytes_ = 0;
  std::string implementation_;
};

}  // namespace

bool IsRecurrentSupported(const backend::ILayerView& layer, std::string& reason) {
  backend::RecurrentGeometry g;
  if (!backend::DescribeRecurrent(layer, g, reason)) return false;
  const auto& d = static_cast<const RecurrentDescriptor&>(*layer.GetDescriptor());
  if (g.has_lengths && !AllLengthsAreT(static_cast<const std::int32_t*>(layer.GetConstantInput(kLengths)), g)) {
    reason = "sequence_lens other than a constant of T is not supported (oneDNN's RNN primitives run every step of "
             "every batch entry)";
    return false;
  }
  if (layer.GetInputInfo(kX).type != DataType::kFloat32) {
    reason = std::string("input 0 is ") + ToString(layer.GetInputInfo(kX).type) + "; CpuOneDnn runs f32 only";
    return false;
  }
  for (std::size_t i : {kW, kR, kB, kPeephole}) {
    if (i < layer.GetNumInputs() && !layer.GetConstantInput(i)) {
      reason = "weights, bias and peepholes computed at run time are not supported (CpuOneDnn reorders constant "
               "weights once)";
      return false;
    }
  }
  if (d.clip > 0 || d.input_forget) {
    reason = "clip and input_forget are not supported (oneDNN's RNN primitives have neither)";
    return false;
  }
  return HasOneDnnFunctions(d, g.functions, reason);
}

std::unique_ptr<backend::IWorkload> CreateRecurrentWorkload(const OpSpec& spec, const ExecutionSettingsPtr& execution) {
  backend::RecurrentGeometry g;
  g.steps = spec.inputs[kX].info.shape[0];
  g.batch = spec.inputs[kX].info.shape[1];
  g.input = spec.inputs[kX].info.shape[2];
  g.hidden = spec.inputs[kR].info.shape[2];
  g.directions = spec.inputs[kW].info.shape[0];
  const auto& d = static_cast<const RecurrentDescriptor&>(*spec.descriptor);
  g.gates = d.cell == RecurrentCell::kRnn ? 1 : d.cell == RecurrentCell::kGru ? 3 : 4;
  const std::size_t n = spec.inputs.size();
  g.has_bias = n > kB;
  g.has_lengths = n > kLengths;
  g.has_initial_h = n > kInitialH;
  g.has_initial_c = n > kInitialC;
  g.has_peephole = n > kPeephole;
  for (const TensorRef& input : spec.inputs) {
    if (input.view) ThrowCreateError(spec.name, "recurrent: an input read through a view");
  }
  if (g.has_lengths && !AllLengthsAreT(static_cast<const std::int32_t*>(spec.inputs[kLengths].constant), g)) {
    ThrowCreateError(spec.name, "recurrent: sequence_lens other than T");
  }
  try {
    return std::make_unique<RecurrentWorkload>(spec, g, execution);
  } catch (const dnnl::error& error) {
    ThrowCreateError(spec.name, std::string("recurrent: ") + error.what());
  }
}

}  // namespace backplane::onednn
