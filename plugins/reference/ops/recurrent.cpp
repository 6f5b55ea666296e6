// Recurrent (ONNX RNN, GRU and LSTM, time-major; the C header's BpRecurrentAttributes): the
// reference, a plain loop over the time steps of each direction, then over the batch; each gate
// is the dot products of x_t with W's row and of H with R's row plus both biases, then the cell's
// formulas exactly as ONNX writes them. Every input may be computed at run time (nothing is
// prepacked); f32 and f64, computed in the element type.
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/backend/op_geometry.hpp>
#include <backplane/exception.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace backplane::reference {

namespace {

// One entry of the activations list.
template <typename T>
struct Function {
  RecurrentActivation kind;
  T alpha, beta;

  T operator()(T x) const {
    switch (kind) {
      case RecurrentActivation::kRelu: return std::max(x, T(0));
      case RecurrentActivation::kTanh: return std::tanh(x);
      case RecurrentActivation::kSigmoid: return T(1) / (T(1) + std::exp(-x));
      case RecurrentActivation::kAffine: return alpha * x + beta;
      case RecurrentActivation::kLeakyRelu: return x < 0 ? alpha * x : x;
      case RecurrentActivation::kThresholdedRelu: return x > alpha ? x : T(0);
      case RecurrentActivation::kScaledTanh: return alpha * std::tanh(beta * x);
      case RecurrentActivation::kHardSigmoid: return std::max(T(0), std::min(T(1), alpha * x + beta));
      case RecurrentActivation::kElu: return x < 0 ? alpha * (std::exp(x) - T(1)) : x;
      case RecurrentActivation::kSoftsign: return x / (T(1) + std::abs(x));
      case RecurrentActivation::kSoftplus: return std::log1p(std::exp(x));
    }
    return x;  // unreachable: the op schema checked every value
  }
};

// Immutable after construction; Execute is thread-safe (the states and gates live in scratch).
template <typename T>
class RecurrentWorkload final : public backend::IWorkload {
 public:
  RecurrentWorkload(const backend::RecurrentGeometry& g, const RecurrentDescriptor& d) : g_(g), d_(d) {
    for (std::size_t i = 0; i < d.activations.size(); ++i) {
      functions_.push_back({static_cast<RecurrentActivation>(d.activations[i]), static_cast<T>(d.activation_alpha[i]),
                            static_cast<T>(d.activation_beta[i])});
    }
  }

  // H and C of one direction, and one batch entry's gates.
  std::size_t GetScratchSize() const override {
    return static_cast<std::size_t>(2 * g_.batch * g_.hidden + g_.gates * g_.hidden) * sizeof(T);
  }

  void Execute(const backend::WorkloadArgs& args) const override {
    T* h = static_cast<T*>(args.scratch);
    T* c = h + g_.batch * g_.hidden;
    T* gates = c + g_.batch * g_.hidden;
    if (g_.has_lengths) CheckLengths(Input<std::int32_t>(args, 4));
    for (std::int64_t d = 0; d < g_.directions; ++d) {
      RunDirection(args, d, h, c, gates);
    }
  }

 private:
  using Dims = std::int64_t;

  // Input i of direction d, `per_direction` elements each; null when the layer has no input i.
  static const T* OfDirection(const backend::WorkloadArgs& args, std::size_t i, Dims d, Dims per_direction) {
    if (i >= args.inputs.size()) return nullptr;
    return Input<T>(args, i) + d * per_direction;
  }

  // sequence_lens may be computed at run time: each in [0, T].
  void CheckLengths(const std::int32_t* lengths) const {
    for (Dims b = 0; b < g_.batch; ++b) {
      if (lengths[b] < 0 || lengths[b] > g_.steps) {
        throw Exception(ErrorCode::kInvalidArgument, "sequence_lens[" + std::to_string(b) + "] is " +
                                                         std::to_string(lengths[b]) + ", outside [0, " +
                                                         std::to_string(g_.steps) + "]");
      }
    }
  }

  T Clipped(T x) const {
    if (d_.clip > 0) x = std::max(T(-d_.clip), std::min(T(d_.clip), x));
    return x;
  }

  void RunDirection(const backend::WorkloadArgs& args, Dims d, T* h, T* c, T* gates) const {
    const Dims steps = g_.steps, batch = g_.batch, in = g_.input, hidden = g_.hidden, gh = g_.gates * hidden;
    const T* x = Input<T>(args, 0);
    const T* w = OfDirection(args, 1, d, gh * in);
    const T* r = OfDirection(args, 2, d, gh * hidden);
    const T* bias = OfDirection(args, 3, d, 2 * gh);
    const std::int32_t* lengths = g_.has_lengths ? Input<std::int32_t>(args, 4) : nullptr;
    const T* h0 = OfDirection(args, 5, d, batch * hidden);
    const T* c0 = OfDirection(args, 6, d, batch * hidden);
    const T* p = OfDirection(args, 7, d, 3 * hidden);
    std::fill(h, h + batch * hidden, T(0));
    std::fill(c, c + batch * hidden, T(0));
    if (h0) std::copy(h0, h0 + batch * hidden, h);
    if (c0) std::copy(c0, c0 + batch * hidden, c);
    const Function<T>* f = &functions_[static_cast<std::size_t>(d) * g_.functions];
    const bool reverse = d_.direction == RecurrentDirection::kReverse || d == 1;
    T* y = Output<T>(args, 0);
    for (Dims k = 0; k < steps; ++k) {
      const Dims t = reverse ? steps - 1 - k : k;
      for (Dims b = 0; b < batch; ++b) {
        T* yt = y + ((t * g_.directions + d) * batch + b) * hidden;
        if (lengths && t >= lengths[b]) {  // past this entry's sequence: Y is 0, the state kept
          std::fill(yt, yt + hidden, T(0));
          continue;
        }
        T* hb = h + b * hidden;
        T* cb = c + b * hidden;
        Gates(x + (t * batch + b) * in, hb, w, r, bias, gates);
        switch (d_.cell) {
          case RecurrentCell::kRnn: RnnStep(f, gates, hb); break;
          case RecurrentCell::kGru: GruStep(f, gates, r, bias, hb); break;
          case RecurrentCell::kLstm: LstmStep(f, gates, p, hb, cb); break;
        }
        std::copy(hb, hb + hidden, yt);
      }
    }
    WriteState(args, 1, d, h);
    if (g_.gates == 4) WriteState(args, 2, d, c);
  }

  void WriteState(const backend::WorkloadArgs& args, std::size_t output, Dims d, const T* state) const {
    const Dims n = g_.batch * g_.hidden;
    std::copy(state, state + n, Output<T>(args, output) + d * n);
  }

  // gates[j] = x_t . W[j] + Wb[j] + Rb[j], plus H . R[j] for every gate except GRU's h (whose
  // recurrence depends on r and linear_before_reset: GruStep adds it).
  void Gates(const T* xt, const T* hb, const T* w, const T* r, const T* bias, T* gates) const {
    const Dims in = g_.input, hidden = g_.hidden, gh = g_.gates * hidden;
    const Dims recurrent_rows = g_.gates == 3 ? 2 * hidden : gh;
    for (Dims j = 0; j < gh; ++j) {
      T sum = bias ? bias[j] + (g_.gates == 3 && j >= 2 * hidden ? T(0) : bias[gh + j]) : T(0);
      const T* wj = w + j * in;
      for (Dims i = 0; i < in; ++i) sum += xt[i] * wj[i];
      if (j < recurrent_rows) {
        const T* rj = r + j * hidden;
        for (Dims i = 0; i < hidden; ++i) sum += hb[i] * rj[i];
      }
      gates[j] = sum;
    }
  }

  // H = f(x_t W^T + H R^T + Wb + Rb).
  void RnnStep(const Function<T>* f, const T* gates, T* hb) const {
    for (Dims i = 0; i < g_.hidden; ++i) hb[i] = f[0](Clipped(gates[i]));
  }

  // z = f(.), r = f(.), h~ = g(x_t Wh^T + Wbh + r (.) (H Rh^T + Rbh)) with linear_before_reset,
  // else g(x_t Wh^T + Wbh + (r (.) H) Rh^T + Rbh); H = (1 - z) h~ + z H.
  void GruStep(const Function<T>* f, T* gates, const T* r, const T* bias, T* hb) const {
    const Dims hidden = g_.hidden, gh = 3 * hidden;
    T* z = gates;
    T* reset = gates + hidden;
    T* candidate = gates + 2 * hidden;
    for (Dims i = 0; i < 2 * hidden; ++i) gates[i] = f[0](Clipped(gates[i]));
    const T* rh = r + 2 * hidden * hidden;
    for (Dims j = 0; j < hidden; ++j) {
      const T* rj = rh + j * hidden;
      T sum = bias ? bias[gh + 2 * hidden + j] : T(0);
      if (d_.linear_before_reset) {
        for (Dims i = 0; i < hidden; ++i) sum += hb[i] * rj[i];
        candidate[j] += reset[j] * sum;
      } else {
        for (Dims i = 0; i < hidden; ++i) sum += reset[i] * hb[i] * rj[i];
        candidate[j] += sum;
      }
    }
    for (Dims i = 0; i < hidden; ++i) {
      const T h_new = f[1](Clipped(candidate[i]));
      hb[i] = (T(1) - z[i]) * h_new + z[i] * hb[i];
    }
  }

  // Gates i, o, f, c; peepholes P = [Pi, Po, Pf]: i = f(. + Pi (.) C), f = f(. + Pf (.) C) (or 1 - i
  // with input_forget), c~ = g(.), C = f C + i c~, o = f(. + Po (.) C) with the new C, H = o h(C).
  void LstmStep(const Function<T>* f, const T* gates, const T* p, T* hb, T* cb) const {
    const Dims hidden = g_.hidden;
    for (Dims j = 0; j < hidden; ++j) {
      const T c_old = cb[j];
      const T i = f[0](Clipped(gates[j] + (p ? p[j] * c_old : T(0))));
      const T forget = d_.input_forget ? T(1) - i : f[0](Clipped(gates[2 * hidden + j] + (p ? p[2 * hidden + j] * c_old : T(0))));
      const T candidate = f[1](Clipped(gates[3 * hidden + j]));
      const T c_new = forget * c_old + i * candidate;
      const T o = f[0](Clipped(gates[hidden + j] + (p ? p[hidden + j] * c_new : T(0))));
      cb[j] = c_new;
      hb[j] = o * f[2](c_new);
    }
  }

  backend::RecurrentGeometry g_;
  RecurrentDescriptor d_;
  std::vector<Function<T>> functions_;  // per direction, g_.functions each
};

}  // namespace

bool IsRecurrentSupported(const backend::ILayerView& layer, std::string& reason) {
  const DataType type = layer.GetInputInfo(0).type;
  if (type == DataType::kFloat32 || type == DataType::kFloat64) return true;
  reason = std::string("CpuRef runs RNN, GRU and LSTM on f32 and f64, not ") + ToString(type);
  return false;
}

std::unique_ptr<backend::IWorkload> CreateRecurrentWorkload(const backend::ILayerView& layer) {
  backend::RecurrentGeometry g;
  std::string reason;
  if (!backend::DescribeRecurrent(layer, g, reason)) throw Exception(ErrorCode::kUnsupported, reason);
  const auto& d = DescriptorOf<RecurrentDescriptor>(layer);
  switch (layer.GetInputInfo(0).type) {
    case DataType::kFloat32: return std::make_unique<RecurrentWorkload<float>>(g, d);
    case DataType::kFloat64: return std::make_unique<RecurrentWorkload<double>>(g, d);
    default: break;
  }
  throw Exception(ErrorCode::kUnsupported, "CpuRef runs RNN, GRU and LSTM on f32 and f64 only");
}

}  // namespace backplane::reference
