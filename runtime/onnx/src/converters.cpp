#include "converters.hpp"

namespace backplane::onnx {

namespace {

ConverterTable BuildTable() {
  ConverterTable table;
  AddElementwiseConverters(table);
  AddNnConverters(table);
  AddTensorConverters(table);
  AddLossConverters(table);
  AddResizeConverters(table);
  AddQuantizationConverters(table);
  AddComposedConverters(table);
  AddRecurrentConverters(table);
  AddEinsumConverters(table);
  AddDataDependentConverters(table);
  AddSignalConverters(table);
  return table;
}

}  // namespace

const OpConverter* FindConverter(const std::string& op_type) {
  static const ConverterTable table = BuildTable();
  const auto it = table.find(op_type);
  return it == table.end() ? nullptr : &it->second;
}

}  // namespace backplane::onnx
