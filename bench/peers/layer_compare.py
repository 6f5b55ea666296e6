#!/usr/bin/python3
"""Where one model's time goes, layer by layer: Backplane (sdk-run --per-layer) beside ONNX
Runtime's own per-node profile, to find the layers where ORT is faster.

    /usr/bin/python3 bench/peers/layer_compare.py --model mobilenet_v2 [--build build]
        [--backends CpuOneDnn,CpuRef] [--iterations 20] [--top 25]

The model comes from run_peers.py's cache (made on first use, peer_models.py); ONNX Runtime
from its npm install there (`run_peers.py --peers ort` installs it). onnxruntime-node cannot
profile (its endProfiling is a stub), so this drives the package's libonnxruntime.so through the
C API with ctypes: OrtApi is a table of function pointers that only ever grows, and the indices
below are its version-1 entries (checked against 1.20.1). Linux only. Profiling adds a little
time to every ORT node; compare shapes of the tables, not single numbers, and run twice.

Layers are paired by their ONNX node names: ORT names a node after one of the nodes it fused
(or after its output), Backplane a fused layer after all of its members ("a+b+c"). What stays
unpaired on either side is summed by module path (the name without its last component), which
pairs most of the rest of torchvision and PyTorch exports; the remainder shows with 0 on the
other side.
"""

import argparse
import collections
import ctypes
import glob
import json
import os
import platform
import re
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer_models  # noqa: E402

# OrtApi entries (index into the table GetApi returns).
GET_ERROR_MESSAGE, CREATE_ENV, CREATE_SESSION, RUN, CREATE_SESSION_OPTIONS = 2, 3, 7, 9, 10
ENABLE_PROFILING, SET_OPTIMIZATION_LEVEL, SET_INTRA_THREADS, SET_INTER_THREADS = 14, 23, 24, 25
CREATE_TENSOR_WITH_DATA, CREATE_CPU_MEMORY_INFO = 49, 69
RELEASE_ENV, RELEASE_MEMORY_INFO, RELEASE_SESSION, RELEASE_VALUE, RELEASE_SESSION_OPTIONS = 92, 94, 95, 96, 100
ORT_API_VERSION = 20
ORT_ENABLE_ALL, ORT_LOGGING_LEVEL_ERROR, ORT_ARENA_ALLOCATOR, ORT_MEM_TYPE_DEFAULT, FLOAT = 99, 3, 1, 0, 1
INT64 = 7  # ONNXTensorElementDataType of int64 inputs (token ids, attention masks)


class OrtApiBase(ctypes.Structure):
    _fields_ = [("GetApi", ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_uint32)),
                ("GetVersionString", ctypes.CFUNCTYPE(ctypes.c_char_p))]


def ort_profile(library, model, input_files, iterations, warmup, threads, prefix):
    """Runs `model` on ORT's CPU provider with profiling, fed {input name: .npy file} (float32, or
    int64 token ids and masks); returns the profile file's path."""
    lib = ctypes.CDLL(library)
    lib.OrtGetApiBase.restype = ctypes.POINTER(OrtApiBase)
    table = ctypes.cast(lib.OrtGetApiBase().contents.GetApi(ORT_API_VERSION), ctypes.POINTER(ctypes.c_void_p))
    if not table:
        sys.exit(f"layer_compare.py: {library} offers no C API version {ORT_API_VERSION}")

    def entry(index, *argtypes, restype=ctypes.c_void_p):
        return ctypes.CFUNCTYPE(restype, *argtypes)(table[index])

    error_message = entry(GET_ERROR_MESSAGE, ctypes.c_void_p, restype=ctypes.c_char_p)
    out = ctypes.c_void_p
    p = ctypes.POINTER

    def call(what, index, argtypes, *args):
        status = entry(index, *argtypes)(*args)
        if status:
            sys.exit(f"layer_compare.py: ONNX Runtime {what}: {error_message(status).decode()}")

    env, options, session, memory_info = out(), out(), out(), out()
    call("CreateEnv", CREATE_ENV, [ctypes.c_int, ctypes.c_char_p, p(out)], ORT_LOGGING_LEVEL_ERROR, b"layers",
         ctypes.byref(env))
    call("CreateSessionOptions", CREATE_SESSION_OPTIONS, [p(out)], ctypes.byref(options))
    call("EnableProfiling", ENABLE_PROFILING, [out, ctypes.c_char_p], options, prefix.encode())
    call("SetIntraOpNumThreads", SET_INTRA_THREADS, [out, ctypes.c_int], options, threads)
    call("SetInterOpNumThreads", SET_INTER_THREADS, [out, ctypes.c_int], options, 1)
    call("SetSessionGraphOptimizationLevel", SET_OPTIMIZATION_LEVEL, [out, ctypes.c_int], options, ORT_ENABLE_ALL)
    call("CreateSession", CREATE_SESSION, [out, ctypes.c_char_p, out, p(out)], env, model.encode(), options,
         ctypes.byref(session))
    call("CreateCpuMemoryInfo", CREATE_CPU_MEMORY_INFO, [ctypes.c_int, ctypes.c_int, p(out)], ORT_ARENA_ALLOCATOR,
         ORT_MEM_TYPE_DEFAULT, ctypes.byref(memory_info))
    arrays, tensors = [], []
    for path in input_files.values():
        data = np.load(path)
        element = INT64 if data.dtype == np.int64 else FLOAT
        data = np.ascontiguousarray(data, dtype=np.int64 if element == INT64 else np.float32)
        arrays.append(data)  # alive while the session reads it
        shape = (ctypes.c_int64 * data.ndim)(*data.shape)
        tensors.append(out())
        call("CreateTensorWithDataAsOrtValue", CREATE_TENSOR_WITH_DATA,
             [out, ctypes.c_void_p, ctypes.c_size_t, p(ctypes.c_int64), ctypes.c_size_t, ctypes.c_int, p(out)],
             memory_info, data.ctypes.data, data.nbytes, shape, data.ndim, element, ctypes.byref(tensors[-1]))
    count = len(tensors)
    names_in = (ctypes.c_char_p * count)(*(name.encode() for name in input_files))
    names_out = (ctypes.c_char_p * 1)(b"output")
    inputs = (ctypes.c_void_p * count)(*(tensor.value for tensor in tensors))
    release_value = entry(RELEASE_VALUE, out, restype=None)
    for _ in range(warmup + iterations):
        result = (ctypes.c_void_p * 1)()
        call("Run", RUN, [out, out, p(ctypes.c_char_p), p(ctypes.c_void_p), ctypes.c_size_t, p(ctypes.c_char_p),
                          ctypes.c_size_t, p(ctypes.c_void_p)],
             session, None, names_in, inputs, count, names_out, 1, result)
        release_value(result[0])
    # The session writes its profile when it is released.
    for tensor in tensors:
        release_value(tensor)
    entry(RELEASE_MEMORY_INFO, out, restype=None)(memory_info)
    entry(RELEASE_SESSION, out, restype=None)(session)
    entry(RELEASE_SESSION_OPTIONS, out, restype=None)(options)
    entry(RELEASE_ENV, out, restype=None)(env)
    written = sorted(glob.glob(prefix + "*.json"), key=os.path.getmtime)
    if not written:
        sys.exit("layer_compare.py: ONNX Runtime wrote no profile")
    return written[-1]


def node_key(name):
    """The ONNX node a name stands for, without ORT's suffixes ("/a/Conv_output_0_nchwc" and
    "/a/MatMul/MatmulTransposeFusion//MatMulScaleFusion/" -> "/a/Conv", "/a/MatMul")."""
    return re.sub(r"(/[A-Za-z]+Fusion/*)+$", "", re.sub(r"_output_0.*$", "", name))


def module_path(name):
    """The module a node belongs to: "/layer1/layer1.0/conv1/Conv" -> "/layer1/layer1.0/conv1"."""
    head, _, _ = node_key(name).rpartition("/")
    return head or name


def ort_nodes(profile, warmup):
    """{node key: [ms per run, ORT op]} from the profile's node events after `warmup` runs."""
    events = json.load(open(profile))
    runs = sorted(e["ts"] for e in events if e.get("name") == "model_run")
    start, counted = runs[warmup], len(runs) - warmup
    nodes = collections.defaultdict(lambda: [0.0, ""])
    for e in events:
        if e.get("cat") == "Node" and e["name"].endswith("_kernel_time") and e["ts"] >= start:
            node = nodes[node_key(e["name"][:-len("_kernel_time")])]
            node[0] += e["dur"] / 1000.0 / counted
            node[1] = e["args"].get("op_name", "")
    return nodes


def pair(per_layer, nodes):
    """{key: [our ms, our op and implementation, ORT ms, ORT op]}: a layer of ours goes with the
    slowest ORT node named like one of its members; what stays unpaired on either side is
    summed by module path."""
    rows = collections.defaultdict(lambda: [0.0, "", 0.0, ""])
    paired, unpaired = set(), []
    for layer in per_layer:
        members = [node_key(member) for member in layer["layer"].split("+")]
        named = [member for member in members if member in nodes]
        key = max(named, key=lambda member: nodes[member][0]) if named else None
        if key is None:
            unpaired.append((module_path(members[-1]), layer))
            continue
        paired.add(key)
        rows[key][0] += layer["average_ms"]
        rows[key][1] = f"{layer['op']} {layer['implementation']}".strip()
    for key, layer in unpaired:
        rows[key][0] += layer["average_ms"]
        rows[key][1] = f"{layer['op']} {layer['implementation']}".strip()
    for key, (ms, op) in nodes.items():
        row = rows[key if key in paired else module_path(key)]
        row[2] += ms
        row[3] = op
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", required=True, help="a zoo model or any torchvision classification model")
    parser.add_argument("--build", default="build")
    parser.add_argument("--backends", default="CpuOneDnn,CpuRef")
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--top", type=int, default=25, help="layers to list where ORT is faster (and slower)")
    parser.add_argument("--models-dir", help="default <build>/bench-models")
    parser.add_argument("--peers-dir", help="ONNX Runtime's npm install, default <build>/bench-peers")
    args = parser.parse_args()

    files = peer_models.ensure_model(args.models_dir or os.path.join(args.build, "bench-models"), args.model)
    peers = args.peers_dir or os.path.join(args.build, "bench-peers")
    # napi-v3 up to 1.20, napi-v6 in 1.30; one folder per CPU architecture.
    arch = {"x86_64": "x64", "aarch64": "arm64"}.get(platform.machine(), platform.machine())
    library = glob.glob(os.path.join(peers, "node_modules", "onnxruntime-node", "bin", "napi-v*", "linux", arch,
                                     "libonnxruntime.so.1*"))
    if not library:
        sys.exit(f"layer_compare.py: no libonnxruntime.so under {peers}; run run_peers.py --peers ort once")
    with tempfile.TemporaryDirectory() as scratch:
        profile = ort_profile(sorted(library)[-1], files["onnx"], files["inputs"], args.iterations, args.warmup,
                              args.threads, os.path.join(scratch, "ort"))
        nodes = ort_nodes(profile, args.warmup)
    env = dict(os.environ)
    backend_dir = peer_models.plugin_folder(args.build)
    if backend_dir:
        env["BACKPLANE_BACKEND_PATHS"] = os.path.abspath(backend_dir)
    command = [os.path.join(args.build, "bin", "sdk-run"), "--model", files["onnx"], "--backends", args.backends,
               "--threads", str(args.threads)]
    command += [a for i in peer_models.input_arguments(files) for a in ("--input", i)]
    command += ["--iterations", str(args.iterations), "--warmup", str(args.warmup), "--per-layer", "--json"]
    report = json.loads(subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout)
    rows = pair(report["per_layer"], nodes)

    print(f"{args.model}: Backplane p50 {report['latency_ms']['p50']:.3f} ms (layers add up to "
          f"{sum(row[0] for row in rows.values()):.3f}); ONNX Runtime's nodes add up to "
          f"{sum(row[2] for row in rows.values()):.3f} ms (profiled)")
    by_op = collections.defaultdict(lambda: [0.0, 0.0])
    for row in rows.values():
        op = by_op[row[3] or "(ours only)"]
        op[0] += row[0]
        op[1] += row[2]
    print("\nby ONNX Runtime's op         ours ms     ORT ms")
    for op, (mine, other) in sorted(by_op.items(), key=lambda item: -max(item[1])):
        print(f"  {op:<26} {mine:9.3f}  {other:9.3f}")
    order = sorted(rows, key=lambda key: rows[key][2] - rows[key][0])  # ORT faster first
    shown = order if len(order) <= 2 * args.top else order[:args.top] + [None] + order[-args.top:][::-1]
    print(f"\n{'ours ms':>9} {'ORT ms':>9} {'diff':>8}  layer  [ours | ORT]")
    for key in shown:
        if key is None:
            print("  ...")
            continue
        mine, implementation, other, op = rows[key]
        print(f"{mine:9.3f} {other:9.3f} {mine - other:+8.3f}  {key}  [{implementation} | {op}]")

if __name__ == "__main__":
    main()
