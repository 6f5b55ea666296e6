/* Compiled with debug information against one copy of backend_c_api.h (the current header, or
 * the frozen 2.0 baseline in tests/abi/frozen/) so that abidw can write down the layout of every
 * type the boundary declares; check_abi_layout.py compares the two. The exported function
 * reaches every top-level type, so no type is left out of the debug information. */
#include <backplane/backend_c_api.h>

#if defined(_WIN32)
#define PROBE_EXPORT __declspec(dllexport)
#else
#define PROBE_EXPORT __attribute__((visibility("default")))
#endif

PROBE_EXPORT size_t backplane_abi_layout_probe(
    BpString* a, BpTensorInfo* b, BpStatus* c, BpConvolution2dAttributes* d, BpFullyConnectedAttributes* e,
    BpPooling2dAttributes* f, BpActivationAttributes* g, BpElementwiseBinaryAttributes* h,
    BpElementwiseUnaryAttributes* i, BpSoftmaxAttributes* j, BpBatchNormalizationAttributes* k,
    BpLayerNormalizationAttributes* l, BpReduceAttributes* m, BpReshapeAttributes* n, BpFlattenAttributes* o,
    BpTransposeAttributes* p, BpConcatAttributes* q, BpSplitAttributes* r, BpSliceAttributes* s,
    BpGatherAttributes* t, BpPadAttributes* u, BpCastAttributes* v, BpConstantAttributes* w,
    BpPreCompiledAttributes* x, BpProducer* y, BpLayer* z, BpTensorHandle* a2, BpTensorHandleTable* b2,
    BpTensorHandleFactoryProperties* c2, BpTensorHandleFactory* d2, BpTensorHandleFactoryTable* e2,
    BpTensorHandleFactoryRegistry* f2, BpTensorHandleFactoryRegistryTable* g2, BpWorkloadArgs* h2,
    BpWorkload* i2, BpWorkloadTable* j2, BpWorkloadFactory* k2, BpWorkloadFactoryTable* l2,
    BpMemoryManager* m2, BpMemoryManagerTable* n2, BpBackendContext* o2, BpBackendContextTable* p2,
    BpLayerSupport* q2, BpLayerSupportTable* r2, BpSubgraph* s2, BpLayerIndices* t2, BpSubstitution* u2,
    BpOptimization* v2, BpOptimizationTable* w2, BpLogger* x2, BpOption* y2, BpBackendConfig* z2,
    BpOptionSpec* a3, BpDeviceInfo* b3, BpNamedFlag* c3, BpBackendInfo* d3, BpBackendInfoData* e3,
    BpBackendInfoTable* f3, BpBackend* g3, BpBackendTable* h3, BackplanePluginIdentity* i3,
    BpGetBackendIdFunction j3, BpGetVersionFunction k3, BpBackendFactoryFunction l3) {
  /* Touch every parameter so none is optimised out of the debug information. */
  const void* all[] = {a,  b,  c,  d,  e,  f,  g,  h,  i,  j,  k,  l,  m,  n,  o,  p,  q,  r,  s,  t,  u,
                       v,  w,  x,  y,  z,  a2, b2, c2, d2, e2, f2, g2, h2, i2, j2, k2, l2, m2, n2, o2, p2,
                       q2, r2, s2, t2, u2, v2, w2, x2, y2, z2, a3, b3, c3, d3, e3, f3, g3, h3, i3};
  size_t n_set = 0, index;
  for (index = 0; index < sizeof(all) / sizeof(all[0]); ++index) n_set += all[index] != 0;
  return n_set + (j3 != 0) + (k3 != 0) + (l3 != 0);
}
