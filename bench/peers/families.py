#!/usr/bin/python3
"""Does every torchvision classification family import into Backplane and match PyTorch?

    /usr/bin/python3 bench/peers/families.py [--build build] [--opsets 13,17]
        [--backends CpuRef --backends CpuOneDnn,CpuRef] [--families resnet,swin,...]

For one model of each torchvision 0.14 classification family (seeded random weights, batch 1)
and each opset, exports the model (peer_models.ensure_model), computes PyTorch's output, and runs
`sdk-run --expected output=<torch output> --tolerance 1e-4` once per backend configuration. Prints
one row per model and opset: per configuration "ok" with the relative error and how many layers
fell back from the first backend, or why it failed (the first lines of sdk-run's message).
Exit status 1 when any row failed. Run by hand (a few minutes per family on two cores; the
exports are cached in <build>/bench-models), never in CI: CI runs small instances of the same
patterns (runtime/onnx and plugins/*/ tests).
"""

import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True

import peer_models  # noqa: E402

# family -> the model that stands for it (the smallest of the family in torchvision 0.14).
FAMILIES = {
    "alexnet": "alexnet",
    "convnext": "convnext_tiny",
    "densenet": "densenet121",
    "efficientnet": "efficientnet_b0",
    "efficientnet_v2": "efficientnet_v2_s",
    "googlenet": "googlenet",
    "inception": "inception_v3",
    "mnasnet": "mnasnet0_5",
    "mobilenet_v2": "mobilenet_v2",
    "mobilenet_v3": "mobilenet_v3_small",
    "regnet_x": "regnet_x_400mf",
    "regnet_y": "regnet_y_400mf",
    "resnet": "resnet18",
    "resnext": "resnext50_32x4d",
    "shufflenet_v2": "shufflenet_v2_x0_5",
    "squeezenet": "squeezenet1_0",
    "swin": "swin_t",
    "vgg": "vgg11",
    "vit": "vit_b_16",
    "wide_resnet": "wide_resnet50_2",
}
TOLERANCE = 1e-4


def check(build, files, reference, backends, threads):
    """One `sdk-run --expected` of a cached model on `backends`. Returns {"ok": within TOLERANCE,
    "error": max relative error or None, "failure": why sdk-run failed (import, run) or None,
    "fallbacks": [(layer type, reason, layer name)] for the layers placed on another backend than
    the first}."""
    env = dict(os.environ)
    env["BACKPLANE_BACKEND_PATHS"] = peer_models.plugin_folder(build)
    command = [os.path.join(build, "bin", "sdk-run"), "--model", files["onnx"], "--backends", backends]
    command += [a for i in peer_models.input_arguments(files) for a in ("--input", i)]
    command += ["--expected", "output=" + reference, "--tolerance", str(TOLERANCE), "--iterations", "1",
                "--warmup", "0", "--threads", str(threads), "--json"]
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=3600)
    if done.returncode not in (0, 1):
        lines = [line for line in done.stderr.strip().splitlines() if line.strip()]
        return {"ok": False, "error": None, "fallbacks": [],
                "failure": f"exit {done.returncode}: " + " | ".join(lines[:3])[:300]}
    report = json.loads(done.stdout)
    first = backends.split(",")[0]
    fallbacks = [(layer["type"], layer.get("reason", ""), str(layer["layer"])) for layer in report["placement"]
                 if layer["backend"] and layer["backend"] != first]
    return {"ok": done.returncode == 0, "error": max(item["max_rel_error"] for item in report["expected"]),
            "failure": None, "fallbacks": fallbacks}


def run_sdk(build, files, reference, backends, threads):
    """check() as one table cell: (ok, "err 1.2e-06, 3 on fallback (Type ...)" or the failure)."""
    result = check(build, files, reference, backends, threads)
    if result["failure"]:
        return False, result["failure"]
    text = f"err {result['error']:.1e}"
    if len(backends.split(",")) > 1:
        types = sorted({layer_type for layer_type, _, _ in result["fallbacks"]})
        text += f", {len(result['fallbacks'])} on fallback" + (f" ({' '.join(types)})" if types else "")
    return result["ok"], text


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build")
    parser.add_argument("--opsets", default="13,17")
    parser.add_argument("--backends", action="append")
    parser.add_argument("--families", default=",".join(FAMILIES))
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--models-dir")
    args = parser.parse_args()
    configs = args.backends or ["CpuRef", "CpuOneDnn,CpuRef"]
    cache = args.models_dir or os.path.join(args.build, "bench-models", "families")
    failed = False
    print(f"{'model':22} {'opset':5}  " + "  ".join(f"{c:40}" for c in configs), flush=True)
    for family in args.families.split(","):
        name = FAMILIES[family]
        for opset in (int(o) for o in args.opsets.split(",")):
            try:
                files = peer_models.ensure_model(cache, name, opset=opset, log=lambda m: print(m, file=sys.stderr))
                reference = peer_models.ensure_reference(files)
            except Exception as error:  # an export failure is a row, not the end of the run
                print(f"{name:22} {opset:5}  export failed: {str(error).splitlines()[0][:200]}", flush=True)
                failed = True
                continue
            cells = []
            for backends in configs:
                ok, text = run_sdk(args.build, files, reference, backends, args.threads)
                failed |= not ok
                cells.append(("ok, " if ok else "FAIL ") + text)
            print(f"{name:22} {opset:5}  " + "  ".join(f"{c:40}" for c in cells), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
