#!/usr/bin/env python3
"""Backplane (sdk-run) against ONNX Runtime's CPU EP through Python's `onnxruntime` package, in
interleaved rounds: for machines that have that package but no node/npm (a lent GPU host, whose
CPU may have AMX). The models are peer_models.py's (seeded random weights, exported here).

    python3 bench/peers/ort_python_rounds.py --build DIR [--models resnet50,...] [--rounds 3]
        [--iterations 10] [--threads 2] [--fast-math] [--cache DIR]

Prints the CPU, the ORT version, then per model the median of each engine's per-round medians
and their ratio (ours / ORT fp32). Not a test: timings never fail anything.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True

import peer_models  # noqa: E402


def cpu_summary():
    model, flags = "?", set()
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name") and model == "?":
                model = line.split(":", 1)[1].strip()
            if line.startswith("flags"):
                flags = set(line.split(":", 1)[1].split())
    bf16 = [flag for flag in ("amx_tile", "amx_bf16", "avx512_bf16", "avx512f") if flag in flags]
    return model, bf16


def ort_median_ms(session, feed, iterations, warmup):
    for _ in range(warmup):
        session.run(None, feed)
    times = []
    for _ in range(iterations):
        started = time.perf_counter()
        outputs = session.run(None, feed)
        times.append((time.perf_counter() - started) * 1e3)
    return statistics.median(times), outputs[0]


def ours_median_ms(args, files, iterations, warmup, out_dir):
    plugins = peer_models.plugin_folder(args.build)
    env = dict(os.environ, BACKPLANE_BACKEND_PATHS=plugins or "")
    command = [os.path.join(args.build, "bin", "sdk-run"), "--model", files["onnx"], "--backends",
               args.backends, "--threads", str(args.threads)]
    command += [a for i in peer_models.input_arguments(files) for a in ("--input", i)]
    command += ["--iterations", str(iterations), "--warmup", str(warmup), "--json", "--output-dir", out_dir]
    if args.fast_math:
        command += ["--backend-option", "CpuOneDnn:fast_math=1"]
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600)
    if done.returncode != 0:
        raise RuntimeError(f"sdk-run failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
    report = json.loads(done.stdout)
    output = next(o["file"] for o in report["outputs"] if o["file"])
    return report["latency_ms"]["p50"], np.load(output)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", required=True)
    parser.add_argument("--backends", default="CpuOneDnn,CpuRef")
    parser.add_argument("--models", default="resnet50,mobilenet_v2,efficientnet_b0,convnext_tiny,bert_base")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--iterations", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--fast-math", action="store_true")
    parser.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "backplane-peer-models"))
    args = parser.parse_args()

    import onnxruntime

    model_name, bf16 = cpu_summary()
    print(f"CPU: {model_name}; {', '.join(bf16) or 'no avx512/bf16/amx flags'}; "
          f"onnxruntime {onnxruntime.__version__}; {args.threads} threads; "
          f"ours {'fast_math' if args.fast_math else 'fp32'} vs ORT fp32", flush=True)
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = args.threads
    options.inter_op_num_threads = 1
    rows = []
    work = tempfile.mkdtemp(prefix="backplane-ort-rounds-")
    for name in args.models.split(","):
        files = peer_models.ensure_model(args.cache, name, log=lambda m: print(m, flush=True))
        session = onnxruntime.InferenceSession(files["onnx"], options, providers=["CPUExecutionProvider"])
        feed = {name: np.load(path) for name, path in files["inputs"].items()}
        iterations = max(3, args.iterations // 2) if name == "bert_base" else args.iterations
        ours_rounds, ort_rounds, errors = [], [], []
        for round_index in range(args.rounds):
            out_dir = os.path.join(work, name, str(round_index))
            os.makedirs(out_dir, exist_ok=True)
            order = ("ort", "ours") if round_index % 2 == 0 else ("ours", "ort")
            for engine in order:
                if engine == "ort":
                    median, ort_out = ort_median_ms(session, feed, iterations, args.warmup)
                    ort_rounds.append(median)
                else:
                    median, our_out = ours_median_ms(args, files, iterations, args.warmup, out_dir)
                    ours_rounds.append(median)
            scale = float(np.max(np.abs(ort_out))) or 1.0
            errors.append(float(np.max(np.abs(our_out.astype(np.float64) - ort_out))) / scale)
        ours, ort = statistics.median(ours_rounds), statistics.median(ort_rounds)
        rows.append((name, ours, ort, ours / ort, max(errors)))
        print(f"{name:18} ours {ours:8.2f} ms  ORT {ort:8.2f} ms  ratio {ours / ort:5.2f}  "
              f"max rel error {max(errors):.1e}  rounds ours {['%.2f' % t for t in ours_rounds]} "
              f"ORT {['%.2f' % t for t in ort_rounds]}", flush=True)
    ratios = [row[3] for row in rows]
    geomean = float(np.exp(np.mean(np.log(ratios)))) if ratios else float("nan")
    print(f"geometric mean of the ratios: {geomean:.3f} over {len(rows)} models", flush=True)


if __name__ == "__main__":
    main()
