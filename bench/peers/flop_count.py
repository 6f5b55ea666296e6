"""GFLOP per inference of an ONNX model: 2 x the multiply-accumulates of its Conv, Gemm and
MatMul nodes (everything else is ignored), with shapes from onnx.shape_inference (with data
propagation, for shapes the graph computes)."""

import numpy as np


def _shapes(model):
    import onnx

    inferred = onnx.shape_inference.infer_shapes(model, data_prop=True)  # shapes computed in the graph (Swin)
    shapes = {}
    graph = inferred.graph
    for value in list(graph.input) + list(graph.value_info) + list(graph.output):
        dims = value.type.tensor_type.shape.dim
        if all(d.HasField("dim_value") for d in dims):
            shapes[value.name] = [d.dim_value for d in dims]
    for tensor in graph.initializer:
        shapes[tensor.name] = list(tensor.dims)
    return inferred, shapes


def _attribute(node, name, default):
    import onnx

    for attribute in node.attribute:
        if attribute.name == name:
            return onnx.helper.get_attribute_value(attribute)
    return default


def count_macs(model):
    """(multiply-accumulates, {op type: MACs}) of the model's Conv, Gemm and MatMul nodes."""
    inferred, shapes = _shapes(model)
    per_op = {}
    for node in inferred.graph.node:
        macs = 0
        if node.op_type == "Conv":
            out, weight = shapes.get(node.output[0]), shapes.get(node.input[1])
            if out and weight:  # every output element: C/group x kernel MACs
                macs = int(np.prod(out)) * int(np.prod(weight[1:]))
        elif node.op_type == "Gemm":
            a, out = shapes.get(node.input[0]), shapes.get(node.output[0])
            if a and out:
                k = a[0] if _attribute(node, "transA", 0) else a[1]
                macs = int(np.prod(out)) * k
        elif node.op_type == "MatMul":
            a, out = shapes.get(node.input[0]), shapes.get(node.output[0])
            if a and out is not None:
                macs = int(np.prod(out)) * a[-1]
        else:
            continue
        if macs == 0:
            raise ValueError(f"no static shapes for {node.op_type} node {node.name!r}")
        per_op[node.op_type] = per_op.get(node.op_type, 0) + macs
    return sum(per_op.values()), per_op


def gflop(path, sdk_run=None, env=None):
    """GFLOP per inference. Where ONNX shape inference leaves a product's shapes unknown
    (Swin computes its window shapes in the graph) and `sdk_run` (with `env`) is given: the sum
    of the per-layer FLOPs sdk-run reports, which the runtime counts by the same rule
    (2 x MACs of convolutions and matrix products) on the shapes it resolved at import."""
    import json
    import subprocess

    import onnx

    try:
        macs, _ = count_macs(onnx.load(path))
        return 2.0 * macs / 1e9
    except ValueError:
        if not sdk_run:
            raise
    report = subprocess.run([sdk_run, "--model", path, "--backends", "CpuOneDnn,CpuRef", "--iterations", "1",
                             "--warmup", "0", "--per-layer", "--json"], env=env, capture_output=True, text=True,
                            check=True)
    return sum(layer["flops"] for layer in json.loads(report.stdout)["per_layer"]) / 1e9
