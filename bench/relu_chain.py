#!/usr/bin/env python3
"""Writes a chain of N Relu nodes (x -> Relu -> Relu -> ... -> y, opset 13) as an ONNX model:
the model of issue 41's scale measurements (per-layer cost of import, optimize and load).

    /usr/bin/python3 bench/relu_chain.py 100000 /tmp/relu_100k.onnx [--shape 1,16]
    /usr/bin/time -v build/bin/sdk-run --model /tmp/relu_100k.onnx --backends CpuRef --iterations 1

Needs the onnx Python package (Debian: python3-onnx).
"""
import argparse

import onnx
from onnx import TensorProto, helper


def relu_chain(layers, shape):
    nodes = []
    previous = "x"
    for i in range(layers):
        output = "y" if i + 1 == layers else f"t{i}"
        nodes.append(helper.make_node("Relu", [previous], [output], name=f"relu{i}"))
        previous = output
    graph = helper.make_graph(
        nodes, "relu_chain",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, shape)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)],
                             producer_name="relu_chain")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("layers", type=int)
    parser.add_argument("path")
    parser.add_argument("--shape", default="1,16", help="the input's dimensions (default 1,16)")
    args = parser.parse_args()
    shape = [int(d) for d in args.shape.split(",")]
    onnx.save(relu_chain(args.layers, shape), args.path)


if __name__ == "__main__":
    main()
