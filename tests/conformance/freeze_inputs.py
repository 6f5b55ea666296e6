#!/usr/bin/python3
"""Copies suite cases with every graph input but the first made a constant (an initializer
holding the case's first data set's values), for ops whose shape-giving inputs the suite feeds
at run time (Resize's scales and sizes, Reshape's shape, ...), while models in the wild hold
them as constants. Their expected outputs are the suite's own.

    /usr/bin/python3 tests/conformance/freeze_inputs.py --suite /usr/share/libonnx-testdata/data \\
        --out /tmp/frozen --cases test_resize_,test_upsample_
    build/bin/backplane_onnx_conformance --suite /tmp/frozen --runner CpuRef

Needs python3-onnx; not run in CI (a check by hand of an op before shapes from the inputs,
issue 40, lets the suite's own cases pass).
"""

import argparse
import glob
import os
import shutil

import onnx


def freeze(case, out):
    model = onnx.load(os.path.join(case, "model.onnx"))
    initialized = {t.name for t in model.graph.initializer}
    inputs = [i for i in model.graph.input if i.name not in initialized]
    data_sets = sorted(glob.glob(os.path.join(case, "test_data_set_*")))
    values = [onnx.load_tensor(os.path.join(data_sets[0], f"input_{i}.pb")) for i in range(len(inputs))]
    for data_set in data_sets:
        target = os.path.join(out, os.path.basename(data_set))
        os.makedirs(target, exist_ok=True)
        shutil.copy(os.path.join(data_set, "input_0.pb"), target)
        for output in glob.glob(os.path.join(data_set, "output_*.pb")):
            shutil.copy(output, target)
    for graph_input, value in zip(inputs[1:], values[1:]):
        value.name = graph_input.name
        model.graph.initializer.append(value)
        model.graph.input.remove(graph_input)
    onnx.save(model, os.path.join(out, "model.onnx"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--cases", required=True, help="comma-separated name prefixes")
    args = parser.parse_args()
    count = 0
    for kind in ("node", "pytorch-converted", "pytorch-operator", "simple"):
        for prefix in args.cases.split(","):
            for case in sorted(glob.glob(os.path.join(args.suite, kind, prefix + "*"))):
                freeze(case, os.path.join(args.out, kind, os.path.basename(case)))
                count += 1
    print(f"{count} cases written under {args.out}")


if __name__ == "__main__":
    main()
