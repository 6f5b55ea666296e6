#include "desc_pool.hpp"

#include "dnnl_compat.hpp"

#include <functional>

namespace backplane::onednn {

namespace {
std::size_t HashOf(const dnnl::memory::desc& desc) {
  std::size_t hash = std::hash<std::size_t>()(desc.get_size());
  for (const auto dim : compat::Dims(desc)) hash = hash * 1000003u ^ std::hash<std::int64_t>()(dim);
  return hash;
}
}  // namespace

const dnnl::memory::desc& DescPool::Intern(const dnnl::memory::desc& desc) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto& bucket = buckets_[HashOf(desc)];
  for (const auto& stored : bucket) {
    if (*stored == desc) return *stored;
  }
  bucket.push_back(std::make_unique<const dnnl::memory::desc>(desc));
  ++size_;
  return *bucket.back();
}

std::size_t DescPool::Size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return size_;
}

}  // namespace backplane::onednn
