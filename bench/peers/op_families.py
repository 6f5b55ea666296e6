#!/usr/bin/python3
"""Do the model families of issue 39 ("op set v2") import into Backplane, match PyTorch, and run
every layer on the first backend?

    /usr/bin/python3 bench/peers/op_families.py [--build build] [--models a,b,...]
        [--backends CpuOneDnn,CpuRef --backends CpuRef] [--verbose]

For each model of family_models.FAMILY_MODELS (segmentation, a YOLO-style neck, a wav2vec-style
speech front end, LSTM and GRU taggers, a GPT-style decoder, a BERT-style encoder with int64 ids
and mask, a U-Net, r3d_18; seeded random weights, batch 1, exported as peer_models.py does) runs
`sdk-run --expected output=<PyTorch's output> --tolerance 1e-4` once per backend configuration
and prints one row per model: whether it imported, its relative error and whether that is within
1e-4, and the layers that fell back from the first backend, grouped by type with sdk-run's reason
(--verbose: their names). Exit status 1 when a model fails to import, misses the tolerance
or has a layer on a fallback backend. Run by hand (minutes on two cores; the exports are cached in
<build>/bench-models, shared with run_peers.py --models families, which times the same models
against ONNX Runtime). See bench/peers/README.md.
"""

import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True

import families  # noqa: E402
import family_models  # noqa: E402
import peer_models  # noqa: E402


def why(reason):
    """sdk-run's placement reason without the layer's name: "CpuOneDnn: CpuOneDnn cannot run layer
    'x': <why>; placed on CpuRef" -> "CpuOneDnn: <why>" (another form is kept whole)."""
    found = re.match(r"(\w+): .*?cannot run layer '.*?': (.*?)(; placed on \w+)?$", reason or "")
    return f"{found.group(1)}: {found.group(2)}" if found else reason


def fallback_lines(fallbacks, verbose):
    """The fallen-back layers grouped by type and reason: "  3 x Type: reason [layers a, b, c]"."""
    groups = {}
    for layer_type, reason, name in fallbacks:
        groups.setdefault((layer_type, why(reason)), []).append(name)
    lines = []
    for (layer_type, reason), names in sorted(groups.items(), key=lambda item: -len(item[1])):
        line = f"      {len(names)} x {layer_type}: {reason or '(no reason given)'}"
        if verbose:
            line += f" [layers {', '.join(names)}]"
        lines.append(line)
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build")
    parser.add_argument("--models", default=",".join(family_models.FAMILY_MODELS))
    parser.add_argument("--backends", action="append")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--models-dir", help="model cache (default: <build>/bench-models, run_peers.py's)")
    parser.add_argument("--verbose", action="store_true", help="name every layer that fell back")
    args = parser.parse_args()
    configs = args.backends or ["CpuOneDnn,CpuRef", "CpuRef"]
    cache = args.models_dir or os.path.join(args.build, "bench-models")
    failed = False
    for name in args.models.split(","):
        if name not in family_models.FAMILY_MODELS:
            sys.exit(f"op_families.py: unknown model {name} ({', '.join(family_models.FAMILY_MODELS)})")
        family = family_models.FAMILY_MODELS[name][0]
        print(f"{family}: {name} (opset {peer_models.spec(name)[0]}, {peer_models.describe_inputs(name)})", flush=True)
        try:
            files = peer_models.ensure_model(cache, name, log=lambda m: print(m, file=sys.stderr))
            reference = peer_models.ensure_reference(files)
        except Exception as error:  # an export failure is a row, not the end of the run
            print(f"  export failed: {str(error).splitlines()[0][:200]}", flush=True)
            failed = True
            continue
        for backends in configs:
            result = families.check(args.build, files, reference, backends, args.threads)
            if result["failure"]:
                print(f"  {backends:18} imports: NO  {result['failure']}", flush=True)
                failed = True
                continue
            fallbacks = result["fallbacks"] if "," in backends else []
            failed |= not result["ok"] or bool(fallbacks)
            print(f"  {backends:18} imports: yes  err {result['error']:.1e} "
                  f"{'matches' if result['ok'] else 'DOES NOT MATCH'} (1e-4)  "
                  f"{len(fallbacks)} layers on fallback", flush=True)
            for line in fallback_lines(fallbacks, args.verbose):
                print(line, flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
