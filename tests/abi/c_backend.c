/* A backend written in C99 against backplane/backend_c_api.h alone: no C++ compiler, no C++
 * runtime, no SDK library. It proves the plugin boundary is C: the runtime loads it, places layers
 * on it and runs them.
 *
 * It runs ElementwiseBinary Add and Mul of two f32 tensors of one shape, and Activation Relu, on
 * host memory (it registers no tensor-handle factory). It declares one option, "bias" (an
 * integer added to every Relu output), to show options and the log channel from C.
 *
 * Built twice (tests/abi/CMakeLists.txt): against the current header, and against the frozen
 * copy of the 2.0 header in tests/abi/frozen/ (the old-layout test), and against a simulated
 * next minor of it (a plugin that this runtime must refuse).
 */
#include <backplane/backend_c_api.h>

#include <stdlib.h>
#include <string.h>

#ifndef C_BACKEND_ID
#error "C_BACKEND_ID names the backend (a bare token)"
#endif
#define C_STRINGIFY2(x) #x
#define C_STRINGIFY(x) C_STRINGIFY2(x)
#define C_ID C_STRINGIFY(C_BACKEND_ID)

#if defined(_WIN32)
#define C_EXPORT __declspec(dllexport)
#else
#define C_EXPORT __attribute__((visibility("default")))
#endif

static BpString Str(const char* text) {
  BpString s;
  s.data = text;
  s.size = strlen(text);
  return s;
}

/* ---- Status: a static one for out of memory, heap ones otherwise ---- */

typedef struct CStatus {
  BpStatus base;
  char text[200];
} CStatus;

static void DestroyStatus(BpStatus* status) { free(status); }
static void DestroyNothing(BpStatus* status) { (void)status; }
static BpStatus kOutOfMemory = {sizeof(BpStatus), BP_STATUS_OUT_OF_MEMORY, {"out of memory", 13}, DestroyNothing};

static BpStatus* MakeStatus(uint32_t code, const char* text, BpString detail) {
  CStatus* status = (CStatus*)malloc(sizeof(CStatus));
  size_t used, room;
  if (!status) return &kOutOfMemory;
  used = strlen(text);
  if (used >= sizeof(status->text)) used = sizeof(status->text) - 1;
  memcpy(status->text, text, used);
  room = sizeof(status->text) - 1 - used;
  if (detail.size < room) room = detail.size;
  if (room > 0) memcpy(status->text + used, detail.data, room);
  used += room;
  status->text[used] = '\0';
  status->base.struct_size = sizeof(BpStatus);
  status->base.code = code;
  status->base.message.data = status->text;
  status->base.message.size = used;
  status->base.destroy = DestroyStatus;
  return &status->base;
}

/* ---- What the backend runs ---- */

enum { kAdd, kMul, kRelu };

static size_t ElementCount(const BpTensorInfo* info) {
  size_t count = 1, i;
  for (i = 0; i < info->rank; ++i) count *= (size_t)info->dims[i];
  return count;
}

static int SameInfo(const BpTensorInfo* a, const BpTensorInfo* b) {
  size_t i;
  if (a->data_type != b->data_type || a->rank != b->rank) return 0;
  for (i = 0; i < a->rank; ++i) {
    if (a->dims[i] != b->dims[i]) return 0;
  }
  return 1;
}

/* Which of the ops `layer` is, or a status saying why this backend cannot run it. */
static BpStatus* Classify(const BpLayer* layer, int* op) {
  if (layer->type == BP_LAYER_ELEMENTWISE_BINARY) {
    const BpElementwiseBinaryAttributes* attributes = (const BpElementwiseBinaryAttributes*)layer->attributes;
    if (!attributes) return MakeStatus(BP_STATUS_INVALID_ARGUMENT, "binary layer without attributes: ", layer->name);
    if (attributes->operation == BP_BINARY_ADD) {
      *op = kAdd;
    } else if (attributes->operation == BP_BINARY_MUL) {
      *op = kMul;
    } else {
      return MakeStatus(BP_STATUS_UNSUPPORTED, "only Add and Mul are supported: ", layer->name);
    }
    if (layer->input_count != 2 || layer->output_count != 1 || !SameInfo(&layer->inputs[0], &layer->inputs[1]) ||
        !SameInfo(&layer->inputs[0], &layer->outputs[0])) {
      return MakeStatus(BP_STATUS_UNSUPPORTED, "inputs must have one shape (no broadcasting): ", layer->name);
    }
  } else if (layer->type == BP_LAYER_ACTIVATION) {
    const BpActivationAttributes* attributes = (const BpActivationAttributes*)layer->attributes;
    if (!attributes || attributes->function != BP_ACTIVATION_RELU) {
      return MakeStatus(BP_STATUS_UNSUPPORTED, "only Relu activations are supported: ", layer->name);
    }
    if (layer->input_count != 1 || layer->output_count != 1) {
      return MakeStatus(BP_STATUS_UNSUPPORTED, "Relu takes one input: ", layer->name);
    }
    *op = kRelu;
  } else {
    return MakeStatus(BP_STATUS_UNSUPPORTED, "layer type not supported: ", layer->name);
  }
  if (layer->inputs[0].data_type != BP_DATA_TYPE_F32) {
    return MakeStatus(BP_STATUS_UNSUPPORTED, "only f32 tensors are supported: ", layer->name);
  }
  return NULL;
}

/* ---- Backend context: holds the options and the logger ---- */

typedef struct CContext {
  BpBackendContext base;
  long bias;
  BpLogger logger; /* copied; its context stays valid as long as this context */
  int has_logger;
} CContext;

static void Log(const CContext* context, const char* text) {
  if (context && context->has_logger && context->logger.write) {
    context->logger.write(context->logger.context, BP_LOG_INFO, BP_LOG_PLUGIN, Str(text));
  }
}

static void DestroyContext(BpBackendContext* self) { free(self); }
static BpStatus* NetworkEvent(BpBackendContext* self, uint64_t network) {
  (void)self;
  (void)network;
  return NULL;
}
static const BpBackendContextTable kContextTable = {sizeof(BpBackendContextTable), DestroyContext, NetworkEvent,
                                                    NetworkEvent, NetworkEvent, NetworkEvent};

/* ---- Workloads ---- */

typedef struct CWorkload {
  BpWorkload base;
  int op;
  size_t count;
  float bias;
} CWorkload;

static void DestroyWorkload(BpWorkload* self) { free(self); }

static BpStatus* Execute(const BpWorkload* self, const BpWorkloadArgs* args) {
  const CWorkload* workload = (const CWorkload*)self;
  const size_t inputs = workload->op == kRelu ? 1 : 2;
  void* in[2] = {NULL, NULL};
  void* out = NULL;
  BpStatus* status = NULL;
  size_t i, mapped = 0;
  if (args->input_count != inputs || args->output_count != 1) {
    return MakeStatus(BP_STATUS_INVALID_ARGUMENT, "wrong number of tensors", Str(""));
  }
  for (; mapped < inputs; ++mapped) {
    status = args->inputs[mapped]->table->map(args->inputs[mapped], &in[mapped]);
    if (status) break;
  }
  if (!status) status = args->outputs[0]->table->map(args->outputs[0], &out);
  if (!status) {
    const float* a = (const float*)in[0];
    const float* b = (const float*)in[1];
    float* y = (float*)out;
    for (i = 0; i < workload->count; ++i) {
      if (workload->op == kAdd) {
        y[i] = a[i] + b[i];
      } else if (workload->op == kMul) {
        y[i] = a[i] * b[i];
      } else {
        y[i] = (a[i] > 0.0f ? a[i] : 0.0f) + workload->bias;
      }
    }
    args->outputs[0]->table->unmap(args->outputs[0]);
  }
  for (i = 0; i < mapped; ++i) args->inputs[i]->table->unmap(args->inputs[i]);
  return status;
}

static size_t ScratchSize(const BpWorkload* self) {
  (void)self;
  return 0;
}

#if BP_BACKEND_API_MINOR >= 1
/* 2.1: what runs the workload, the same for every workload of this backend. (The frozen 2.0
 * build has no get_info: its runtime-side info stays empty.) */
static const BpWorkloadInfo kInfo = {sizeof(BpWorkloadInfo), {"C99 loop", 8}, {NULL, 0}};
static const BpWorkloadInfo* Info(const BpWorkload* self) {
  (void)self;
  return &kInfo;
}
static const BpWorkloadTable kWorkloadTable = {sizeof(BpWorkloadTable), DestroyWorkload, Execute, ScratchSize,
                                               Info};
#else
static const BpWorkloadTable kWorkloadTable = {sizeof(BpWorkloadTable), DestroyWorkload, Execute, ScratchSize};
#endif

typedef struct CWorkloadFactory {
  BpWorkloadFactory base;
  long bias;
} CWorkloadFactory;

static void DestroyWorkloadFactory(BpWorkloadFactory* self) { free(self); }

static BpStatus* CreateWorkload(BpWorkloadFactory* self, const BpLayer* layer, BpWorkload** result) {
  CWorkload* workload;
  int op = 0;
  BpStatus* status = Classify(layer, &op);
  if (status) return status;
  workload = (CWorkload*)malloc(sizeof(CWorkload));
  if (!workload) return &kOutOfMemory;
  workload->base.table = &kWorkloadTable;
  workload->op = op;
  workload->count = ElementCount(&layer->outputs[0]);
  workload->bias = (float)((CWorkloadFactory*)self)->bias;
  *result = &workload->base;
  return NULL;
}

static const BpWorkloadFactoryTable kWorkloadFactoryTable = {sizeof(BpWorkloadFactoryTable), DestroyWorkloadFactory,
                                                             CreateWorkload};

/* ---- Layer support ---- */

static void DestroyLayerSupport(BpLayerSupport* self) { free(self); }
static BpStatus* IsLayerSupported(const BpLayerSupport* self, const BpLayer* layer) {
  int op = 0;
  (void)self;
  return Classify(layer, &op);
}
static const BpLayerSupportTable kLayerSupportTable = {sizeof(BpLayerSupportTable), DestroyLayerSupport,
                                                       IsLayerSupported};

/* ---- Backend info: static arrays, so the info object owns nothing ---- */

static const uint32_t kDataTypes[] = {BP_DATA_TYPE_F32};
static const uint32_t kLayerTypes[] = {BP_LAYER_ELEMENTWISE_BINARY, BP_LAYER_ACTIVATION};
static BpDeviceInfo kDevices[1];
static BpOptionSpec kOptions[1];
static BpBackendInfoData kInfoData;

static void DestroyInfo(BpBackendInfo* self) { free(self); }
static const BpBackendInfoData* InfoData(const BpBackendInfo* self) {
  (void)self;
  return &kInfoData;
}
static const BpBackendInfoTable kInfoTable = {sizeof(BpBackendInfoTable), DestroyInfo, InfoData};

/* ---- The backend ---- */

static void DestroyBackend(BpBackend* self) { free(self); }
static BpString GetIdString(const BpBackend* self) {
  (void)self;
  return Str(C_ID);
}

static BpStatus* GetInfo(const BpBackend* self, BpBackendInfo** info) {
  BpBackendInfo* created = (BpBackendInfo*)malloc(sizeof(BpBackendInfo));
  (void)self;
  if (!created) return &kOutOfMemory;
  kInfoData.struct_size = sizeof(BpBackendInfoData);
  kInfoData.device_kind = BP_DEVICE_CPU;
  kInfoData.data_types = kDataTypes;
  kInfoData.data_type_count = 1;
  kInfoData.layer_types = kLayerTypes;
  kInfoData.layer_type_count = 2;
  kDevices[0].name = Str("C99 host loop");
  kDevices[0].kind = BP_DEVICE_CPU;
  kDevices[0].available = 1;
  kDevices[0].reason = Str("");
  kInfoData.devices = kDevices;
  kInfoData.device_count = 1;
  kOptions[0].key = Str("bias");
  kOptions[0].type = BP_OPTION_INTEGER;
  kOptions[0].default_value = Str("0");
  kOptions[0].doc = Str("added to every Relu output (a test of options across the C boundary)");
  kInfoData.options = kOptions;
  kInfoData.option_count = 1;
  created->table = &kInfoTable;
  *info = created;
  return NULL;
}

static BpStatus* CreateBackendContext(const BpBackend* self, const BpBackendConfig* config,
                                      BpBackendContext** result) {
  CContext* context = (CContext*)calloc(1, sizeof(CContext));
  size_t i;
  (void)self;
  if (!context) return &kOutOfMemory;
  context->base.table = &kContextTable;
  for (i = 0; i < config->option_count; ++i) {
    const BpOption* option = &config->options[i];
    if (option->key.size == 4 && memcmp(option->key.data, "bias", 4) == 0) {
      char text[32];
      size_t n = option->value.size < sizeof(text) - 1 ? option->value.size : sizeof(text) - 1;
      memcpy(text, option->value.data, n);
      text[n] = '\0';
      context->bias = strtol(text, NULL, 10);
    }
  }
  if (BP_HAS_FIELD(config, BpBackendConfig, logger) && config->logger &&
      BP_HAS_FIELD(config->logger, BpLogger, write)) {
    context->logger = *config->logger;
    context->has_logger = 1;
  }
  Log(context, "C backend context created");
  *result = &context->base;
  return NULL;
}

static BpStatus* CheckAvailable(const BpBackend* self, BpBackendContext* context) {
  (void)self;
  (void)context;
  return NULL;
}

static BpStatus* CreateLayerSupport(const BpBackend* self, BpLayerSupport** result) {
  BpLayerSupport* support = (BpLayerSupport*)malloc(sizeof(BpLayerSupport));
  (void)self;
  if (!support) return &kOutOfMemory;
  support->table = &kLayerSupportTable;
  *result = support;
  return NULL;
}

static BpStatus* CreateWorkloadFactory(const BpBackend* self, BpMemoryManager* manager, BpBackendContext* context,
                                       BpWorkloadFactory** result) {
  CWorkloadFactory* factory = (CWorkloadFactory*)malloc(sizeof(CWorkloadFactory));
  (void)self;
  (void)manager;
  if (!factory) return &kOutOfMemory;
  factory->base.table = &kWorkloadFactoryTable;
  /* Our own context, or none (the optimizer folding constants): defaults. */
  factory->bias = context && context->table == &kContextTable ? ((CContext*)context)->bias : 0;
  if (context && context->table == &kContextTable) Log((CContext*)context, "C workload factory created");
  *result = &factory->base;
  return NULL;
}

/* Designated initializers: the optional functions (optimize_subgraph, create_memory_manager,
 * register_tensor_handle_factories) and whatever a later minor appends stay null. */
static const BpBackendTable kBackendTable = {
    .struct_size = sizeof(BpBackendTable),
    .destroy = DestroyBackend,
    .get_id = GetIdString,
    .get_info = GetInfo,
    .create_backend_context = CreateBackendContext,
    .check_available = CheckAvailable,
    .create_layer_support = CreateLayerSupport,
    .create_workload_factory = CreateWorkloadFactory,
};

/* ---- Entry points ---- */

static const char* LastFactoryError(void) { return ""; }

C_EXPORT extern const BackplanePluginIdentity BackplanePluginIdentityV1;
const BackplanePluginIdentity BackplanePluginIdentityV1 = {
    BACKPLANE_PLUGIN_MAGIC,    sizeof(BackplanePluginIdentity), "Backplane", BP_BACKEND_API_MAJOR,
    BP_BACKEND_API_MINOR, C_PLATFORM_TAG,                 "c",         C_ID,
    "Test",                    "1.0.0",                         LastFactoryError};

C_EXPORT const char* GetBackendId(void) { return C_ID; }

C_EXPORT void GetVersion(uint32_t* major, uint32_t* minor) {
  if (major) *major = BP_BACKEND_API_MAJOR;
  if (minor) *minor = BP_BACKEND_API_MINOR;
}

C_EXPORT void* BackendFactory(void) {
  BpBackend* backend = (BpBackend*)malloc(sizeof(BpBackend));
  if (backend) backend->table = &kBackendTable;
  return backend;
}
