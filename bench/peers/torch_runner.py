#!/usr/bin/python3
"""Times one model in PyTorch (eager, CPU): the very module its ONNX file was exported from.

    /usr/bin/python3 torch_runner.py --module M.pt --input FILE.npy... [--iterations N] [--warmup W]
                                     [--threads T] [--output FILE.npy]

Prints one JSON document on stdout: {"engine", "version", "threads", "latencies_ms": [...]}
(fewer latencies than --iterations when --budget-s ran out).
"""

import argparse
import json
import sys
import time

import numpy as np
import torch


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--module", required=True, help="torch.save()d module (peer_models.py)")
    parser.add_argument("--input", required=True, action="append",
                        help="an input .npy (f32 images, int64 token ids); repeated for each of the "
                             "module's inputs, in order")
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--output", help="write the last run's output here (.npy)")
    parser.add_argument("--budget-s", type=float, default=60.0,
                        help="stop the timed runs after this many seconds (at least 3 runs); "
                             "one warmup run only when a run takes longer than a tenth of it")
    args = parser.parse_args()

    torch.set_num_threads(args.threads)
    module = torch.load(args.module).eval()
    x = [torch.from_numpy(np.load(path)) for path in args.input]
    latencies = []
    with torch.inference_mode():
        for i in range(args.warmup):
            start = time.perf_counter()
            y = module(*x)
            if time.perf_counter() - start > args.budget_s / 10:
                break  # a slow model: Debian's PyTorch does matrix products with reference BLAS
        begun = time.perf_counter()
        for i in range(args.iterations):
            if i >= 3 and time.perf_counter() - begun > args.budget_s:
                break
            start = time.perf_counter()
            y = module(*x)
            latencies.append((time.perf_counter() - start) * 1e3)
    if args.output:
        np.save(args.output, y.numpy())
    json.dump({"engine": "pytorch", "version": torch.__version__, "threads": torch.get_num_threads(),
               "latencies_ms": latencies}, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
