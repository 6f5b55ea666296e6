// NonMaxSuppression (op set v2, ONNX NonMaxSuppression) on f32, as ONNX Runtime's kernel: per
// batch and class, the boxes with score > score_threshold in descending score order (ties: the
// lower box index first), each kept when its IoU with every box kept before is at most
// iou_threshold (a box of no area, or no overlap, never suppresses), at most
// max_output_boxes_per_class. Rows [batch, class, box] padded past `count` with zeros.
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/descriptors.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

namespace backplane::reference {

namespace {

// A box as its corners: y1 <= y2, x1 <= x2.
struct Corners {
  float y1, x1, y2, x2;
  float Area() const { return (y2 - y1) * (x2 - x1); }
};

Corners CornersOf(const float* box, bool center_point_box) {
  if (center_point_box) {  // [x_center, y_center, width, height]
    const float half_w = box[2] / 2.0f, half_h = box[3] / 2.0f;
    return {box[1] - half_h, box[0] - half_w, box[1] + half_h, box[0] + half_w};
  }
  return {std::min(box[0], box[2]), std::min(box[1], box[3]), std::max(box[0], box[2]), std::max(box[1], box[3])};
}

// ONNX Runtime's SuppressByIOU: whether a and b overlap by more than `threshold`.
bool Suppresses(const Corners& a, const Corners& b, float threshold) {
  const float y1 = std::max(a.y1, b.y1), x1 = std::max(a.x1, b.x1);
  const float y2 = std::min(a.y2, b.y2), x2 = std::min(a.x2, b.x2);
  const float area_a = a.Area(), area_b = b.Area();
  if (area_a <= 0.0f || area_b <= 0.0f || y2 <= y1 || x2 <= x1) return false;
  const float intersection = (y2 - y1) * (x2 - x1);
  const float union_area = area_a + area_b - intersection;
  if (union_area <= 0.0f) return false;
  return intersection / union_area > threshold;
}

// The optional scalar input `index`, or `fallback` when the layer does not have it.
template <typename T>
T OptionalScalar(const backend::WorkloadArgs& args, std::size_t index, T fallback) {
  return index < args.inputs.size() ? Input<T>(args, index)[0] : fallback;
}

class NonMaxSuppressionWorkload final : public backend::IWorkload {
 public:
  NonMaxSuppressionWorkload(std::int64_t batches, std::int64_t classes, std::int64_t boxes, bool center_point_box,
                            bool has_score_threshold, std::string name)
      : batches_(batches), classes_(classes), boxes_(boxes), center_point_box_(center_point_box),
        has_score_threshold_(has_score_threshold), name_(std::move(name)) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    const float* boxes = Input<float>(args, 0);
    const float* scores = Input<float>(args, 1);
    const std::int64_t max_per_class = std::max<std::int64_t>(0, OptionalScalar<std::int64_t>(args, 2, 0));
    const float iou_threshold = OptionalScalar<float>(args, 3, 0.0f);
    const float score_threshold = OptionalScalar<float>(args, 4, 0.0f);
    if (!(iou_threshold >= 0.0f && iou_threshold <= 1.0f)) {
      throw Exception(ErrorCode::kInvalidArgument, "NonMaxSuppression layer '" + name_ + "': iou_threshold " +
                                                       std::to_string(iou_threshold) + " is not in [0, 1]");
    }
    auto* selected = Output<std::int64_t>(args, 0);
    std::fill(selected, selected + batches_ * classes_ * boxes_ * 3, std::int64_t{0});
    std::int64_t count = 0;
    std::vector<std::int64_t> order;
    std::vector<Corners> kept;
    for (std::int64_t b = 0; b < batches_; ++b) {
      for (std::int64_t c = 0; c < classes_; ++c) {
        const float* score = scores + (b * classes_ + c) * boxes_;
        order.clear();
        for (std::int64_t n = 0; n < boxes_; ++n) {
          if (!has_score_threshold_ || score[n] > score_threshold) order.push_back(n);
        }
        std::stable_sort(order.begin(), order.end(), [&](std::int64_t x, std::int64_t y) { return score[x] > score[y]; });
        kept.clear();
        for (const std::int64_t n : order) {
          if (static_cast<std::int64_t>(kept.size()) >= max_per_class) break;
          const Corners box = CornersOf(boxes + (b * boxes_ + n) * 4, center_point_box_);
          if (std::any_of(kept.begin(), kept.end(), [&](const Corners& k) { return Suppresses(k, box, iou_threshold); })) {
            continue;
          }
          kept.push_back(box);
          const std::array<std::int64_t, 3> row{b, c, n};
          std::copy(row.begin(), row.end(), selected + count * 3);
          ++count;
        }
      }
    }
    Output<std::int64_t>(args, 1)[0] = count;
  }

 private:
  std::int64_t batches_, classes_, boxes_;
  bool center_point_box_, has_score_threshold_;
  std::string name_;
};

}  // namespace

std::unique_ptr<backend::IWorkload> CreateNonMaxSuppressionWorkload(const backend::ILayerView& layer) {
  const auto& d = DescriptorOf<NonMaxSuppressionDescriptor>(layer);
  const auto& boxes = layer.GetInputInfo(0).shape.Dims();
  const auto& scores = layer.GetInputInfo(1).shape.Dims();
  return std::make_unique<NonMaxSuppressionWorkload>(boxes[0], scores[1], boxes[1], d.center_point_box,
                                                     layer.GetNumInputs() > 4, layer.GetName());
}

}  // namespace backplane::reference
