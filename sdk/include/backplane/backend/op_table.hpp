// A backend's op table: one row per layer type it runs (any row type with a `type` member, e.g.
// {type, is_supported, create}), kept in a std::array and looked up by layer type. The layer
// support and the workload factory of a backend only consult its table, so adding an op is one
// row. These are the lookups every table needs. Pure functions; thread-safe.
#pragma once

#include <backplane/backend/layer.hpp>

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace backplane::backend {

// The row for `type`, or null when the table has none.
template <typename Row, std::size_t N>
const Row* FindRow(const std::array<Row, N>& rows, LayerType type) {
  for (const auto& row : rows) {
    if (row.type == type) return &row;
  }
  return nullptr;
}

// The layer types of the table, in table order (what a backend reports as its capabilities).
template <typename Row, std::size_t N>
std::vector<LayerType> LayerTypesOf(const std::array<Row, N>& rows) {
  std::vector<LayerType> types;
  types.reserve(N);
  for (const auto& row : rows) types.push_back(row.type);
  return types;
}

// True when the layer carries a descriptor (every op of op set v1 has one), else false with
// "<LayerType> layer '<name>' has no descriptor".
inline bool HasDescriptor(const ILayerView& layer, std::string& reason) {
  if (layer.GetDescriptor()) return true;
  reason = std::string(ToString(layer.GetType())) + " layer '" + layer.GetName() + "' has no descriptor";
  return false;
}

}  // namespace backplane::backend
