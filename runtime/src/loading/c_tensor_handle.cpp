#include "loading/c_tensor_handle.hpp"

#include "loading/c_layer.hpp"

#include <backplane/backend/c_status.hpp>
#include <backplane/exception.hpp>

#include <new>
#include <typeinfo>

namespace backplane::loading {

namespace {

// ---- The runtime's handles as C objects (HandleView) ------------------------------------------

// Views are not owned by the plugin: destroying one does nothing.
void ViewDestroy(BpTensorHandle*) {}

void ViewGetInfo(const BpTensorHandle* self, BpTensorInfo* info) {
  if (info == nullptr) return;
  try {
    *info = ToC(reinterpret_cast<const HandleView*>(self)->handle->GetInfo());
  } catch (...) {
    *info = {sizeof(BpTensorInfo), 0, nullptr, 0};  // GetInfo returns a reference; never reached
  }
}

BpStatus* ViewMap(BpTensorHandle* self, void** data) {
  return backend::GuardedCall([&] {
    if (data == nullptr) throw Exception(ErrorCode::kInvalidArgument, "map: null output pointer");
    *data = reinterpret_cast<HandleView*>(self)->handle->Map();
  });
}

void ViewUnmap(BpTensorHandle* self) {
  try {
    reinterpret_cast<HandleView*>(self)->handle->Unmap();
  } catch (...) {
    // Unmap cannot report a failure across the boundary; the runtime's handles never throw here.
  }
}

BpStatus* ViewImport(BpTensorHandle* self, void* memory, std::uint32_t source, std::uint32_t* imported) {
  return backend::GuardedCall([&] {
    if (imported == nullptr) throw Exception(ErrorCode::kInvalidArgument, "import_memory: null output pointer");
    *imported = 0;
    if (source != BP_MEMORY_HOST) return;  // the only memory kind the runtime's handles know
    *imported = reinterpret_cast<HandleView*>(self)->handle->Import(memory, backend::MemorySource::kHost) ? 1u : 0u;
  });
}

const BpTensorHandleTable kViewTable{sizeof(BpTensorHandleTable), &ViewDestroy, &ViewGetInfo,
                                     &ViewMap,                    &ViewUnmap,   &ViewImport};

BpTensorHandle* AsC(backend::ITensorHandle* handle, HandleView& view) {
  if (handle == nullptr) return nullptr;
  // CTensorHandle is final, so comparing the dynamic type is exact (and cheaper than a cast).
  if (typeid(*handle) == typeid(CTensorHandle)) return static_cast<CTensorHandle*>(handle)->Get();
  view.c.table = &kViewTable;
  view.handle = handle;
  return &view.c;
}

}  // namespace

// ---- CTensorHandle -------------------------------------------------------------------------------

CTensorHandle::CTensorHandle(BpTensorHandle* handle, TensorInfo info, OriginPtr origin)
    : origin_(std::move(origin)), handle_(handle, *origin_), info_(std::move(info)) {}

void* CTensorHandle::Map() {
  void* data = nullptr;
  CheckStatus(handle_.table().map(handle_.get(), &data), *origin_, "BpTensorHandle map");
  if (data == nullptr) {
    // It reported success, so it counts as mapped: unmapped again before failing.
    handle_.table().unmap(handle_.get());
    throw PluginError(ErrorCode::kBackendFailure, DescribeCall(*origin_, "BpTensorHandle map") + ": returned no memory");
  }
  return data;
}

void CTensorHandle::Unmap() { handle_.table().unmap(handle_.get()); }

bool CTensorHandle::Import(void* memory, backend::MemorySource source) {
  if (!handle_.table().import_memory) return false;
  std::uint32_t imported = 0;
  CheckStatus(handle_.table().import_memory(handle_.get(), memory, static_cast<std::uint32_t>(source), &imported),
              *origin_, "BpTensorHandle import_memory");
  return imported != 0;
}

// ---- CTensorHandleFactory ------------------------------------------------------------------------

CTensorHandleFactory::CTensorHandleFactory(BpTensorHandleFactory* factory, OriginPtr origin)
    : origin_(std::move(origin)), factory_(factory, *origin_) {
  id_ = FromC(factory_.table().get_id(factory_.get()), kMaxIdBytes, *origin_, "BpTensorHandleFactory get_id");
  if (id_.empty()) {
    throw PluginError(ErrorCode::kBackendFailure,
                      DescribeCall(*origin_, "BpTensorHandleFactory get_id") + ": returned an empty id");
  }
}

backend::TensorHandleFactoryProperties CTensorHandleFactory::GetProperties() const {
  backend::TensorHandleFactoryProperties properties;  // the defaults when the plugin says nothing
  if (!factory_.table().get_properties) return properties;
  BpTensorHandleFactoryProperties c{sizeof(BpTensorHandleFactoryProperties), properties.supports_map_unmap ? 1u : 0u,
                                    properties.import_sources, properties.export_sources};
  factory_.table().get_properties(factory_.get(), &c);
  properties.supports_map_unmap = c.supports_map_unmap != 0;
  properties.import_sources = c.import_sources;
  properties.export_sources = c.export_sources;
  return properties;
}

std::unique_ptr<backend::ITensorHandle> CTensorHandleFactory::CreateTensorHandle(const TensorInfo& info) const {
  const BpTensorInfo c_info = ToC(info);
  BpTensorHandle* handle = nullptr;
  const std::string function = "BpTensorHandleFactory " + id_ + " create_handle";
  CheckStatus(factory_.table().create_handle(factory_.get(), &c_info, &handle), *origin_, function);
  if (handle == nullptr) {
    throw PluginError(ErrorCode::kBackendFailure, DescribeCall(*origin_, function) + ": returned no handle");
  }
  return Adopt<CTensorHandle>(handle, info, origin_);
}

// ---- CFactoryRegistry ----------------------------------------------------------------------------

CFactoryRegistry::CFactoryRegistry(backend::ITensorHandleFactoryRegistry& registry, OriginPtr origin)
    : c_{nullptr}, registry_(&registry), origin_(std::move(origin)) {
  static const BpTensorHandleFactoryRegistryTable table{sizeof(BpTensorHandleFactoryRegistryTable),
                                                        &CFactoryRegistry::RegisterFactory};
  c_.table = &table;
}

BpStatus* CFactoryRegistry::RegisterFactory(BpTensorHandleFactoryRegistry* self, BpTensorHandleFactory* factory) {
  return backend::GuardedCall([&] {
    auto* registry = reinterpret_cast<CFactoryRegistry*>(self);
    if (factory == nullptr) {
      throw Exception(ErrorCode::kInvalidArgument, "register_factory was given a null tensor-handle factory");
    }
    // Takes ownership first (the wrapper destroys the factory if it cannot be used), then
    // registers; the registry destroys it when it refuses it.
    auto wrapped = Adopt<CTensorHandleFactory>(factory, registry->origin_);
    registry->registry_->RegisterFactory(std::move(wrapped));
  });
}

// ---- HandleArray ---------------------------------------------------------------------------------

HandleArray::HandleArray(const std::vector<backend::ITensorHandle*>& handles) : size_(handles.size()) {
  HandleView* views = inline_views_.data();
  pointers_ = inline_pointers_.data();
  if (size_ > kInline) {
    heap_views_ = std::make_unique<HandleView[]>(size_);
    heap_pointers_ = std::make_unique<BpTensorHandle*[]>(size_);
    views = heap_views_.get();
    pointers_ = heap_pointers_.get();
  }
  for (std::size_t i = 0; i < size_; ++i) pointers_[i] = AsC(handles[i], views[i]);
}

}  // namespace backplane::loading
