// Tensor handles across the C boundary, both ways: a plugin's BpTensorHandle and
// BpTensorHandleFactory as the runtime's ITensorHandle and ITensorHandleFactory; the runtime's
// handles and its factory registry as the C objects a plugin receives.
#pragma once

#include "loading/c_tables.hpp"

#include <backplane/backend/tensor_handle.hpp>
#include <backplane/backend_c_api.h>

#include <array>
#include <cstddef>
#include <memory>
#include <vector>

namespace backplane::loading {

// A plugin's tensor handle. Owns it (destroyed with its table's destroy) and keeps the plugin's
// library loaded. Not thread-safe, like every handle.
class CTensorHandle final : public backend::ITensorHandle {
 public:
  // Takes ownership of `handle` (non-null), which was created for `info`. Throws PluginError
  // when its table lacks a required function (the handle is destroyed when it can be).
  CTensorHandle(BpTensorHandle* handle, TensorInfo info, OriginPtr origin);

  const TensorInfo& GetInfo() const override { return info_; }
  void* Map() override;
  void Unmap() override;
  bool Import(void* memory, backend::MemorySource source) override;

  // The plugin's object, still owned by this wrapper.
  BpTensorHandle* Get() const { return handle_.get(); }

 private:
  OriginPtr origin_;  // first: the library outlives the handle
  Owned<BpTensorHandle, BpTensorHandleTable> handle_;
  TensorInfo info_;
};

// A plugin's tensor-handle factory, owned. Thread-safe (as the C contract requires of it).
class CTensorHandleFactory final : public backend::ITensorHandleFactory {
 public:
  // Takes ownership of `factory` (non-null). Throws PluginError when its table lacks a required
  // function or its id is empty (the factory is destroyed then when it can be).
  CTensorHandleFactory(BpTensorHandleFactory* factory, OriginPtr origin);

  const backend::FactoryId& GetId() const override { return id_; }
  backend::TensorHandleFactoryProperties GetProperties() const override;
  std::unique_ptr<backend::ITensorHandle> CreateTensorHandle(const TensorInfo& info) const override;

 private:
  OriginPtr origin_;
  Owned<BpTensorHandleFactory, BpTensorHandleFactoryTable> factory_;
  backend::FactoryId id_;
};

// The runtime's registry as the BpTensorHandleFactoryRegistry a plugin registers into: each
// factory is wrapped (CTensorHandleFactory) and passed to `registry`. Valid while it lives; used
// during one register_tensor_handle_factories call. Not thread-safe.
class CFactoryRegistry {
 public:
  CFactoryRegistry(backend::ITensorHandleFactoryRegistry& registry, OriginPtr origin);
  CFactoryRegistry(const CFactoryRegistry&) = delete;
  CFactoryRegistry& operator=(const CFactoryRegistry&) = delete;
  BpTensorHandleFactoryRegistry* Get() { return &c_; }

 private:
  static BpStatus* RegisterFactory(BpTensorHandleFactoryRegistry* self, BpTensorHandleFactory* factory);
  BpTensorHandleFactoryRegistry c_;  // first: a BpTensorHandleFactoryRegistry* is a CFactoryRegistry*
  backend::ITensorHandleFactoryRegistry* registry_;
  OriginPtr origin_;
};

// Any ITensorHandle as a BpTensorHandle for one call: a plugin's own handle (CTensorHandle) is
// unwrapped to its BpTensorHandle; any other (the runtime's host handles) gets a small view whose
// functions call it. Valid while this object and the handle live. Trivially constructible, so an
// array of them on the stack costs nothing until filled.
struct HandleView {
  BpTensorHandle c;  // first: a BpTensorHandle* of a view is a HandleView*
  backend::ITensorHandle* handle;
};

// The BpTensorHandle* array of one call over `handles` (null stays null): up to kInline handles
// without a heap allocation (Execute's arity is almost always below). Not copyable or movable
// (the pointers may point into it).
class HandleArray {
 public:
  static constexpr std::size_t kInline = 8;
  explicit HandleArray(const std::vector<backend::ITensorHandle*>& handles);
  HandleArray(const HandleArray&) = delete;
  HandleArray& operator=(const HandleArray&) = delete;

  BpTensorHandle* const* data() const { return pointers_; }
  std::size_t size() const { return size_; }

 private:
  std::array<HandleView, kInline> inline_views_;
  std::array<BpTensorHandle*, kInline> inline_pointers_;
  std::unique_ptr<HandleView[]> heap_views_;
  std::unique_ptr<BpTensorHandle*[]> heap_pointers_;
  BpTensorHandle** pointers_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace backplane::loading
