#include "run_objects.hpp"

#include <new>

namespace backplane::onednn {

dnnl::memory RunObjects::Memory(const SharedDesc& desc, void* data) {
  Slots& slots = slots_[desc.get()];
  if (!slots.desc) slots.desc = desc;
  if (slots.used == 0) touched_.push_back(&slots);
  if (slots.used == slots.memories.size()) {
    slots.memories.emplace_back(*desc, engine_, data);
  } else {
    slots.memories[slots.used].set_data_handle(data);
  }
  return slots.memories[slots.used++];
}

void RunObjects::Begin() {
  for (Slots* slots : touched_) slots->used = 0;
  touched_.clear();
}

RunPool::Lease::Lease(RunPool& pool, const dnnl::engine& engine) : pool_(pool) {
  {
    std::lock_guard<std::mutex> lock(pool_.mutex_);
    if (!pool_.idle_.empty()) {
      objects_ = std::move(pool_.idle_.back());
      pool_.idle_.pop_back();
    }
  }
  if (!objects_) objects_ = std::make_unique<RunObjects>(engine);
  objects_->Begin();
}

RunPool::Lease::~Lease() {
  std::lock_guard<std::mutex> lock(pool_.mutex_);
  try {
    pool_.idle_.push_back(std::move(objects_));
  } catch (const std::bad_alloc&) {
    // Not kept: a later Execute makes new ones.
  }
}

}  // namespace backplane::onednn
