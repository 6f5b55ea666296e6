#include "naive_ops.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace backplane::unit::naive {

std::size_t Tensor::Size() const {
  std::size_t size = 1;
  for (auto d : dims) size *= static_cast<std::size_t>(d);
  return size;
}

Tensor FromFloats(std::vector<std::int64_t> dims, const std::vector<float>& values) {
  Tensor t{std::move(dims), AsDoubles(values)};
  if (t.Size() != t.values.size()) throw std::invalid_argument("naive::FromFloats: size does not match the shape");
  return t;
}

std::vector<double> AsDoubles(const std::vector<float>& values) {
  return std::vector<double>(values.begin(), values.end());
}

Tensor Conv2d(const Tensor& x, const Tensor& w, const std::vector<double>& bias, std::array<int, 2> strides,
              std::array<int, 4> pads, std::array<int, 2> dilations, int groups) {
  const std::int64_t n = x.Dim(0), c = x.Dim(1), h = x.Dim(2), wd = x.Dim(3);
  const std::int64_t m = w.Dim(0), cg = w.Dim(1), kh = w.Dim(2), kw = w.Dim(3);
  if (cg * groups != c) throw std::invalid_argument("naive::Conv2d: channels do not match the weights");
  const std::int64_t ho = (h + pads[0] + pads[2] - dilations[0] * (kh - 1) - 1) / strides[0] + 1;
  const std::int64_t wo = (wd + pads[1] + pads[3] - dilations[1] * (kw - 1) - 1) / strides[1] + 1;
  const std::int64_t mg = m / groups;
  Tensor out{{n, m, ho, wo}, std::vector<double>(static_cast<std::size_t>(n * m * ho * wo))};
  for (std::int64_t b = 0; b < n; ++b)
    for (std::int64_t o = 0; o < m; ++o) {
      const std::int64_t g = o / mg;
      for (std::int64_t y = 0; y < ho; ++y)
        for (std::int64_t z = 0; z < wo; ++z) {
          double sum = bias.empty() ? 0.0 : bias[static_cast<std::size_t>(o)];
          for (std::int64_t ci = 0; ci < cg; ++ci)
            for (std::int64_t p = 0; p < kh; ++p)
              for (std::int64_t q = 0; q < kw; ++q) {
                const std::int64_t iy = y * strides[0] - pads[0] + p * dilations[0];
                const std::int64_t ix = z * strides[1] - pads[1] + q * dilations[1];
                if (iy < 0 || iy >= h || ix < 0 || ix >= wd) continue;
                const std::int64_t channel = g * cg + ci;
                sum += x.values[static_cast<std::size_t>(((b * c + channel) * h + iy) * wd + ix)] *
                       w.values[static_cast<std::size_t>(((o * cg + ci) * kh + p) * kw + q)];
              }
          out.values[static_cast<std::size_t>(((b * m + o) * ho + y) * wo + z)] = sum;
        }
    }
  return out;
}

Tensor Relu(const Tensor& x) {
  Tensor out = x;
  for (auto& v : out.values) v = v > 0 ? v : 0.0;
  return out;
}

Tensor Gelu(const Tensor& x) {
  Tensor out = x;
  for (auto& v : out.values) v = 0.5 * v * (1.0 + std::erf(v / std::sqrt(2.0)));
  return out;
}

Tensor Add(const Tensor& a, const Tensor& b) {
  if (a.dims != b.dims) throw std::invalid_argument("naive::Add: shapes differ");
  Tensor out = a;
  for (std::size_t i = 0; i < out.values.size(); ++i) out.values[i] += b.values[i];
  return out;
}

Tensor MaxPool2d(const Tensor& x, std::array<int, 2> kernel, std::array<int, 2> strides) {
  const std::int64_t n = x.Dim(0), c = x.Dim(1), h = x.Dim(2), w = x.Dim(3);
  const std::int64_t ho = (h - kernel[0]) / strides[0] + 1;
  const std::int64_t wo = (w - kernel[1]) / strides[1] + 1;
  Tensor out{{n, c, ho, wo}, std::vector<double>(static_cast<std::size_t>(n * c * ho * wo))};
  for (std::int64_t b = 0; b < n * c; ++b)
    for (std::int64_t y = 0; y < ho; ++y)
      for (std::int64_t z = 0; z < wo; ++z) {
        double best = -INFINITY;
        for (int p = 0; p < kernel[0]; ++p)
          for (int q = 0; q < kernel[1]; ++q) {
            best = std::max(best, x.values[static_cast<std::size_t>((b * h + y * strides[0] + p) * w + z * strides[1] + q)]);
          }
        out.values[static_cast<std::size_t>((b * ho + y) * wo + z)] = best;
      }
  return out;
}

Tensor GlobalAveragePool(const Tensor& x) {
  const std::int64_t n = x.Dim(0), c = x.Dim(1), hw = x.Dim(2) * x.Dim(3);
  Tensor out{{n, c, 1, 1}, std::vector<double>(static_cast<std::size_t>(n * c))};
  for (std::int64_t b = 0; b < n * c; ++b) {
    double sum = 0;
    for (std::int64_t i = 0; i < hw; ++i) sum += x.values[static_cast<std::size_t>(b * hw + i)];
    out.values[static_cast<std::size_t>(b)] = sum / static_cast<double>(hw);
  }
  return out;
}

Tensor Flatten(const Tensor& x) {
  Tensor out = x;
  out.dims = {x.Dim(0), static_cast<std::int64_t>(x.Size()) / x.Dim(0)};
  return out;
}

Tensor FullyConnected(const Tensor& x, const Tensor& w, const std::vector<double>& bias) {
  const std::int64_t m = x.Dim(0), k = x.Dim(1), n = w.Dim(0);
  if (w.Dim(1) != k) throw std::invalid_argument("naive::FullyConnected: K differs");
  Tensor out{{m, n}, std::vector<double>(static_cast<std::size_t>(m * n))};
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      double sum = bias.empty() ? 0.0 : bias[static_cast<std::size_t>(j)];
      for (std::int64_t p = 0; p < k; ++p) {
        sum += x.values[static_cast<std::size_t>(i * k + p)] * w.values[static_cast<std::size_t>(j * k + p)];
      }
      out.values[static_cast<std::size_t>(i * n + j)] = sum;
    }
  return out;
}

Tensor Softmax(const Tensor& x) {
  const auto last = static_cast<std::size_t>(x.dims.back());
  Tensor out = x;
  for (std::size_t row = 0; row < x.Size() / last; ++row) {
    double* v = out.values.data() + row * last;
    const double top = *std::max_element(v, v + last);
    double sum = 0;
    for (std::size_t i = 0; i < last; ++i) sum += (v[i] = std::exp(v[i] - top));
    for (std::size_t i = 0; i < last; ++i) v[i] /= sum;
  }
  return out;
}

Tensor LayerNorm(const Tensor& x, const std::vector<double>& scale, const std::vector<double>& bias, double epsilon) {
  const auto last = static_cast<std::size_t>(x.dims.back());
  Tensor out = x;
  for (std::size_t row = 0; row < x.Size() / last; ++row) {
    double* v = out.values.data() + row * last;
    double mean = 0;
    for (std::size_t i = 0; i < last; ++i) mean += v[i];
    mean /= static_cast<double>(last);
    double variance = 0;
    for (std::size_t i = 0; i < last; ++i) variance += (v[i] - mean) * (v[i] - mean);
    variance /= static_cast<double>(last);
    for (std::size_t i = 0; i < last; ++i) {
      v[i] = (v[i] - mean) / std::sqrt(variance + epsilon) * scale[i] + (bias.empty() ? 0.0 : bias[i]);
    }
  }
  return out;
}

Tensor BatchNorm(const Tensor& x, const std::vector<double>& scale, const std::vector<double>& bias,
                 const std::vector<double>& mean, const std::vector<double>& variance, double epsilon) {
  const std::int64_t n = x.Dim(0), c = x.Dim(1);
  const std::int64_t inner = static_cast<std::int64_t>(x.Size()) / (n * c);
  Tensor out = x;
  for (std::int64_t b = 0; b < n; ++b)
    for (std::int64_t ch = 0; ch < c; ++ch) {
      const auto k = static_cast<std::size_t>(ch);
      for (std::int64_t i = 0; i < inner; ++i) {
        double& v = out.values[static_cast<std::size_t>((b * c + ch) * inner + i)];
        v = (v - mean[k]) / std::sqrt(variance[k] + epsilon) * scale[k] + bias[k];
      }
    }
  return out;
}

}  // namespace backplane::unit::naive
