#include "activation_layout.hpp"

#include "../dnnl_desc.hpp"

namespace backplane::onednn {

dnnl::memory::desc ActivationLayout(const ExecutionSettings& execution, const dnnl::memory::dims& dims,
                                    dnnl::memory::data_type type) {
  if (dims.size() == 4 && dims[1] >= 16) return dnnl::memory::desc(dims, type, execution.activation_tag);
  return PlainDesc(dims, type);
}

dnnl::memory::dim ChannelBlock(dnnl::memory::format_tag tag) {
  if (tag == dnnl::memory::format_tag::nChw16c) return 16;
  if (tag == dnnl::memory::format_tag::nChw8c) return 8;
  return 0;
}

std::vector<dnnl::memory::data_type> ActivationTypes(const ExecutionSettings& execution) {
  if (execution.compute_type == dnnl::memory::data_type::f32) return {dnnl::memory::data_type::f32};
  return {execution.compute_type, dnnl::memory::data_type::f32};
}

}  // namespace backplane::onednn
