#include "desc_pool.hpp"

#include "dnnl_compat.hpp"

#include <algorithm>
#include <functional>

namespace backplane::onednn {

namespace {
std::size_t HashOf(const dnnl::memory::desc& desc) {
  std::size_t hash = std::hash<std::size_t>()(desc.get_size());
  for (const auto dim : compat::Dims(desc)) hash = hash * 1000003u ^ std::hash<std::int64_t>()(dim);
  return hash;
}
}  // namespace

SharedDesc DescPool::Intern(const dnnl::memory::desc& desc) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto& bucket = buckets_[HashOf(desc)];
  for (const auto& entry : bucket) {
    SharedDesc stored = entry.lock();
    if (stored && *stored == desc) return stored;
  }
  SharedDesc stored = std::make_shared<const dnnl::memory::desc>(desc);
  bucket.push_back(stored);
  if (++entries_ >= next_sweep_) Sweep();
  return stored;
}

void DescPool::Sweep() {
  entries_ = 0;
  for (auto it = buckets_.begin(); it != buckets_.end();) {
    auto& bucket = it->second;
    bucket.erase(std::remove_if(bucket.begin(), bucket.end(), [](const auto& entry) { return entry.expired(); }),
                 bucket.end());
    entries_ += bucket.size();
    it = bucket.empty() ? buckets_.erase(it) : std::next(it);
  }
  next_sweep_ = std::max<std::size_t>(64, 2 * entries_);
}

std::size_t DescPool::Size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::size_t held = 0;
  for (const auto& [hash, bucket] : buckets_) {
    held += static_cast<std::size_t>(
        std::count_if(bucket.begin(), bucket.end(), [](const auto& entry) { return !entry.expired(); }));
  }
  return held;
}

}  // namespace backplane::onednn
