#!/usr/bin/python3
"""Backplane against its speed peers on the CPU: ONNX Runtime (CPU EP, via onnxruntime-node)
and PyTorch (eager), on a zoo of torchvision models and a BERT-base encoder, batch 1.

    /usr/bin/python3 bench/peers/run_peers.py [--build build] [--backends CpuOneDnn,CpuRef]...
        [--rounds 5] [--iterations 20] [--bert-iterations 10] [--models resnet50,...]
        [--baseline OTHER_BUILD] [--fast-math] [--json results.json]

Run on demand, never in CI. See bench/peers/README.md for what it measures and how to read it.
Needs Debian's Python (python3-torch 1.13, torchvision, onnx, numpy), node and npm (ONNX
Runtime is installed with npm on first use into --peers-dir), and a build with sdk-run.
"""

import argparse
import json
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ in the source tree

import flop_count  # noqa: E402
import peer_models  # noqa: E402

ORT_VERSION = "1.30.0"  # the newest; --ort-version 1.20.1 for the old baseline (exact pins)
ACCURACY_LIMIT = 1e-4                    # max|ours - ORT| / max|ORT|, fp32
RATIO_TARGET = 1.0                       # our median latency / ONNX Runtime's, every model
GEOMEAN_TARGET = 0.8                     # the geometric mean of those ratios
# With --fast-math (bf16 convolutions and matmuls) the geometric mean against ORT's fp32, by what
# the CPU has for bf16: AMX tiles, or AVX512-BF16 only. A CPU with neither runs fast_math in fp32.
FAST_MATH_GEOMEAN_TARGETS = (("amx_tile", 0.4), ("avx512_bf16", 0.7))
PEAK_TARGET = 0.75                       # fraction of the measured FMA peak on resnet50


def cpu_flags():
    """The CPU's feature flags (/proc/cpuinfo), a set of names."""
    if not os.path.exists("/proc/cpuinfo"):
        return set()
    for line in open("/proc/cpuinfo"):
        if line.startswith("flags"):
            return set(line.split(":", 1)[1].split())
    return set()


def geomean_target(args):
    """The geometric-mean target of this run and what it is for: fp32's, or with --fast-math the
    one for this CPU's bf16 hardware (None on a CPU without bf16)."""
    if not args.fast_math:
        return GEOMEAN_TARGET, "fp32"
    flags = cpu_flags()
    for flag, target in FAST_MATH_GEOMEAN_TARGETS:
        if flag in flags:
            return target, f"fast_math with {flag}"
    return None, "fast_math on a CPU without bf16 (no target)"


def log(message):
    print(message, file=sys.stderr, flush=True)


class EngineError(Exception):
    pass


def run_json(command, env=None, timeout=3600):
    """Runs `command`; returns its stdout parsed as JSON. Raises EngineError with its stderr."""
    try:
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise EngineError(f"timed out after {timeout} s: {' '.join(command)}")
    if done.returncode != 0:
        lines = [line for line in done.stderr.strip().splitlines() if line.strip()]
        raise EngineError(f"exit {done.returncode}: " + " | ".join(lines[-3:]))
    try:
        return json.loads(done.stdout)
    except json.JSONDecodeError as error:
        raise EngineError(f"output is not JSON ({error}): {done.stdout[:200]}")


# ---- Engines --------------------------------------------------------------------------------
# Each run(model, files, iterations, warmup, out_dir) returns {"median_ms", "outputs": {name:
# .npy file}, ...}. The median is of that run's per-iteration latencies.

class OnnxRuntime:
    key = "ort"

    def __init__(self, args):
        self.args = args
        self.label = "onnxruntime"
        self.version = ""

    def install(self):
        package = os.path.join(self.args.peers_dir, "node_modules", "onnxruntime-node", "package.json")
        if not os.path.exists(package):
            os.makedirs(self.args.peers_dir, exist_ok=True)
            manifest = os.path.join(self.args.peers_dir, "package.json")
            if not os.path.exists(manifest):
                with open(manifest, "w") as f:
                    json.dump({"name": "backplane-bench-peers", "private": True}, f)
            ort_package = "onnxruntime-node@" + self.args.ort_version
            log(f"installing {ort_package} into {self.args.peers_dir} (npm) ...")
            npm = [self.args.npm, "install", "--ignore-scripts", "--no-audit", "--no-fund",
                   "--save-exact", ort_package]
            done = subprocess.run(npm, cwd=self.args.peers_dir, capture_output=True, text=True)
            if done.returncode != 0 or not os.path.exists(package):
                sys.exit(f"run_peers.py: npm install {ort_package} failed:\n{done.stderr}")
        with open(package) as f:
            self.version = json.load(f)["version"]
        self.label = f"onnxruntime {self.version}"

    def run(self, name, files, iterations, warmup, out_dir):
        command = [self.args.node, os.path.join(HERE, "ort_runner.js"), "--ort-dir", self.args.peers_dir,
                   "--model", files["onnx"]]
        command += [a for i in peer_models.input_arguments(files) for a in ("--input", i)]
        command += ["--iterations", str(iterations), "--warmup", str(warmup), "--threads", str(self.args.threads),
                    "--output-dir", out_dir]
        result = run_json(command)
        return {"median_ms": statistics.median(result["latencies_ms"]), "outputs": result["outputs"],
                "latencies_ms": result["latencies_ms"]}


class PyTorch:
    key = "torch"

    def __init__(self, args):
        self.args = args
        import torch
        self.version = torch.__version__
        self.label = f"pytorch {self.version}"

    def run(self, name, files, iterations, warmup, out_dir):
        output = os.path.join(out_dir, "output.npy")
        command = [sys.executable, os.path.join(HERE, "torch_runner.py"), "--module", files["pt"]]
        command += [a for path in files["inputs"].values() for a in ("--input", path)]
        command += ["--iterations", str(iterations), "--warmup", str(warmup), "--threads", str(self.args.threads),
                    "--output", output, "--budget-s", str(self.args.torch_budget_s)]
        result = run_json(command)
        return {"median_ms": statistics.median(result["latencies_ms"]), "outputs": {"output": output},
                "latencies_ms": result["latencies_ms"]}


class BuildTools:
    """One build folder's sdk-run and sdk-info, and the environment that points them at that
    build's own plugins, whatever the caller's environment says."""

    def __init__(self, build):
        self.build = build
        self.sdk_run = os.path.join(build, "bin", "sdk-run")
        self.sdk_info = os.path.join(build, "bin", "sdk-info")
        if not os.path.exists(self.sdk_run):
            sys.exit(f"run_peers.py: no {self.sdk_run}; build first or pass --build")
        self.env = dict(os.environ)
        backend_dir = peer_models.plugin_folder(build)
        if backend_dir:
            self.env["BACKPLANE_BACKEND_PATHS"] = os.path.abspath(backend_dir)


class Backplane:
    """sdk-run of one build on one backend configuration. The baseline build's engines (key
    "baseline") are reported beside the current build's, with the paired change between them."""

    def __init__(self, args, backends, tools, baseline=False):
        self.args = args
        self.backends = backends
        self.tools = tools
        self.key = "baseline" if baseline else "backplane"
        self.label = ("baseline " if baseline else "backplane ") + backends
        self.fast_math = args.fast_math

    def command(self, files, iterations, warmup, out_dir):
        command = [self.tools.sdk_run, "--model", files["onnx"], "--backends", self.backends,
                   "--threads", str(self.args.threads)]
        command += [a for i in peer_models.input_arguments(files) for a in ("--input", i)]
        command += ["--iterations", str(iterations), "--warmup", str(warmup), "--json",
                   "--output-dir", out_dir]
        if self.fast_math:
            command += ["--backend-option", "CpuOneDnn:fast_math=1"]
        return command

    def run(self, name, files, iterations, warmup, out_dir):
        report = run_json(self.command(files, iterations, warmup, out_dir), env=self.tools.env)
        outputs = {o["name"]: o["file"] for o in report["outputs"] if o["file"]}
        return {"median_ms": report["latency_ms"]["p50"], "outputs": outputs,
                "placement": report["layers_per_backend"], "copies": report["copies"],
                "load_ms": report["load_time_ms"]}


# ---- Measuring ------------------------------------------------------------------------------

def relative_error(ours, reference):
    """max|a - b| / max|b| over every output the reference wrote; inf when one is missing."""
    worst = 0.0
    for name, ref_file in reference.items():
        if name not in ours:
            return float("inf")
        a = np.load(ours[name]).astype(np.float64)
        b = np.load(ref_file).astype(np.float64)
        if a.shape != b.shape:
            return float("inf")
        scale = np.max(np.abs(b)) if b.size else 0.0
        diff = np.max(np.abs(a - b)) if b.size else 0.0
        if not np.isfinite(diff):
            return float("inf")
        worst = max(worst, diff / scale if scale > 0 else (0.0 if diff == 0 else float("inf")))
    return worst


def measure(args, engines, models):
    """The interleaved rounds. Returns {model: {engine label: {"rounds": [median ms], ...}}}."""
    results = {name: {e.label: {"rounds": [], "errors": [], "rel_error": [], "extra": {}}
                      for e in engines} for name in models}
    work = tempfile.mkdtemp(prefix="backplane-peers-")
    try:
        for round_index in range(args.rounds):
            for model_index, name in enumerate(models):
                files = models[name]["files"]
                iterations = args.bert_iterations if name == "bert_base" else args.iterations
                shift = (round_index + model_index) % len(engines)
                order = engines[shift:] + engines[:shift]
                outputs = {}
                for engine in order:
                    entry = results[name][engine.label]
                    if entry["errors"] and not args.keep_going:
                        continue  # failed once on this model: not retried every round
                    out_dir = os.path.join(work, f"r{round_index}", name, engine.label.replace(" ", "_"))
                    os.makedirs(out_dir, exist_ok=True)
                    started = time.time()
                    try:
                        run = engine.run(name, files, iterations, args.warmup, out_dir)
                    except EngineError as error:
                        entry["errors"].append(str(error))
                        log(f"  round {round_index + 1} {name:13} {engine.label:32} FAILED: {error}")
                        continue
                    entry["rounds"].append(run["median_ms"])
                    for key in ("placement", "copies", "load_ms"):
                        if key in run:
                            entry["extra"][key] = run[key]
                    outputs[engine.label] = run["outputs"]
                    log(f"  round {round_index + 1}/{args.rounds} {name:13} {engine.label:32} "
                        f"median {run['median_ms']:10.3f} ms  ({time.time() - started:.1f} s)")
                # Every engine against PyTorch's output for the same input (the module the ONNX
                # file was exported from): the peers' own errors are visible too.
                for label, produced in outputs.items():
                    results[name][label]["rel_error"].append(relative_error(produced, models[name]["reference"]))
            # The round's files are compared; they are not needed any more.
            shutil.rmtree(os.path.join(work, f"r{round_index}"), ignore_errors=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return results


# ---- Reporting ------------------------------------------------------------------------------

def machine_description(args, engines):
    lines = []
    model_name = ""
    try:
        for line in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines():
            if line.startswith("Model name:"):
                model_name = line.split(":", 1)[1].strip()
    except OSError:
        pass
    flags = cpu_flags()
    isa = [f for f in ("avx512f", "avx512_bf16", "amx_tile", "avx2") if f in flags]
    lines.append(f"Machine   {model_name or platform.processor()}, {os.cpu_count()} logical CPUs "
                 f"({', '.join(isa) or 'no AVX'}), {platform.system()} {platform.release()}")
    lines.append(f"Threads   {args.threads} intra-op per engine (ORT intra {args.threads}/inter 1, "
                 f"torch.set_num_threads({args.threads}), sdk-run --threads {args.threads}); "
                 f"OMP_WAIT_POLICY={os.environ.get('OMP_WAIT_POLICY', '(unset)')}")
    try:
        load = os.getloadavg()
        lines.append(f"Load      {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} (1, 5, 15 min) before the runs")
    except OSError:
        pass
    versions = [e.label for e in engines if e.key not in ("backplane", "baseline")]
    try:
        info = run_json([args.tools.sdk_info, "--json"], env=args.tools.env, timeout=120)
        versions.append("backplane " + info.get("sdk_version", "?"))
        for backend in info.get("backends", []):
            devices = ", ".join(d.get("name", "") for d in backend.get("devices", []))
            versions.append(f"{backend['id']} {backend.get('version', '?')} ({devices})")
    except (EngineError, OSError) as error:
        versions.append(f"(sdk-info --json failed: {error})")
    lines.append("Versions  " + "; ".join(versions))
    return lines


def fmt(value, spec):
    return format(value, spec) if value is not None else "-"


def baseline_changes(engines, model_results):
    """Per current-build engine with a baseline twin: the median over rounds of this round's
    median / the baseline's median of the same round (paired, as the ORT ratio is)."""
    lines = []
    for base in (e for e in engines if e.key == "baseline"):
        ours = next((e for e in engines if e.key == "backplane" and e.backends == base.backends), None)
        if ours is None:
            continue
        mine, theirs = model_results[ours.label]["rounds"], model_results[base.label]["rounds"]
        if mine and len(mine) == len(theirs):
            change = statistics.median(a / b for a, b in zip(mine, theirs))
            lines.append(f"  {ours.label} / {base.label}: {change:.3f} (median of {len(mine)} paired rounds; "
                         f"range {min(a / b for a, b in zip(mine, theirs)):.3f}-"
                         f"{max(a / b for a, b in zip(mine, theirs)):.3f})")
    return lines


def report(args, engines, models, results):
    out = []
    ort = next((e for e in engines if e.key == "ort"), None)
    ours = [e for e in engines if e.key == "backplane"]
    summary = {e.label: {"ratios": {}, "peak": {}, "accuracy": {}} for e in ours}
    for name, model in models.items():
        gflop = model["gflop"]
        iterations = args.bert_iterations if name == "bert_base" else args.iterations
        out.append("")
        out.append(f"{name}  ({gflop:.3f} GFLOP per inference, input {peer_models.describe_inputs(name)}, "
                   f"{args.rounds} rounds x "
                   f"{iterations} iterations after {args.warmup} warmup)")
        out.append(f"  {'engine':34} {'median ms':>10} {'best ms':>9} {'GFLOP/s':>8} {'% peak':>7} "
                   f"{'% meas':>7} {'/ ORT':>6}  {'max rel err vs torch':>20}  per-round medians (ms)")
        medians = {}
        for engine in engines:
            entry = results[name][engine.label]
            medians[engine.label] = statistics.median(entry["rounds"]) if entry["rounds"] else None
        ort_rounds = results[name][ort.label]["rounds"] if ort else []
        for engine in engines:
            entry = results[name][engine.label]
            median = medians[engine.label]
            if median is None:
                out.append(f"  {engine.label:34} FAILED: {entry['errors'][0] if entry['errors'] else 'no run'}")
                if engine.key == "backplane":
                    summary[engine.label]["ratios"][name] = None
                    summary[engine.label]["accuracy"][name] = None
                continue
            gflops = gflop / (median / 1e3)
            best = min(entry["rounds"])
            # Paired: each round's median over ORT's median of the same round (they ran seconds
            # apart, so they saw about the same machine load), then the median of those.
            ratio = None
            if engine.key != "ort" and len(ort_rounds) == len(entry["rounds"]) and ort_rounds:
                ratio = statistics.median(ours / theirs for ours, theirs in zip(entry["rounds"], ort_rounds))
            error = max(entry["rel_error"]) if entry["rel_error"] else None
            verdict = ""
            if error is not None and engine.key in ("backplane", "baseline"):
                if args.fast_math:
                    verdict = "(fast-math)"
                else:
                    verdict = "PASS" if error <= ACCURACY_LIMIT else "FAIL"
            error_text = f"{fmt(error, '.2e')} {verdict}".strip()
            rounds = " ".join(f"{r:.2f}" for r in entry["rounds"])
            of_measured = f"{100 * gflops / args.measured_peak:.1f}%" if args.measured_peak else "-"
            out.append(f"  {engine.label:34} {median:10.3f} {best:9.3f} {gflops:8.1f} "
                       f"{100 * gflops / args.peak_gflops:6.1f}% {of_measured:>7} "
                       f"{fmt(ratio, '6.2f'):>6}  "
                       f"{error_text:>20}  {rounds}")
            if engine.key in ("backplane", "baseline"):
                extra = entry["extra"]
                placement = ", ".join(f"{k} {v}" for k, v in extra.get("placement", {}).items())
                out.append(f"  {'':34} layers: {placement or '-'}; copies {extra.get('copies', '-')}; "
                           f"load {fmt(extra.get('load_ms'), '.0f')} ms")
            if engine.key == "backplane":
                summary[engine.label]["ratios"][name] = ratio
                summary[engine.label]["peak"][name] = gflops / (args.measured_peak or args.peak_gflops)
                summary[engine.label]["accuracy"][name] = error
        out += baseline_changes(engines, results[name])
    out.append("")
    peak_basis = (f"the measured {args.measured_peak:.0f} GFLOP/s" if args.measured_peak
                  else f"--peak-gflops {args.peak_gflops:g} (no measured peak)")
    target, target_kind = geomean_target(args)
    out.append(f"Targets (our median / ONNX Runtime's <= {RATIO_TARGET} on every model, geometric mean <= "
               f"{fmt(target, 'g')} ({target_kind}); resnet50 >= {100 * PEAK_TARGET:.0f}% of {peak_basis}; "
               f"max rel error <= {ACCURACY_LIMIT:g}{' - not checked with --fast-math' if args.fast_math else ''}):")
    verdicts = {}
    for engine in ours:
        s = summary[engine.label]
        ratios = s["ratios"]
        ratio_ok = bool(ratios) and all(r is not None and r <= RATIO_TARGET for r in ratios.values())
        ratio_text = ", ".join(f"{m} {fmt(r, '.2f')}" for m, r in ratios.items())
        measured = [r for r in ratios.values() if r is not None]
        geomean = math.exp(statistics.mean(math.log(r) for r in measured)) if measured else None
        geomean_ok = (target is not None and geomean is not None and len(measured) == len(ratios)
                      and geomean <= target)
        peak = s["peak"].get("resnet50")
        peak_ok = peak is not None and peak >= PEAK_TARGET
        accuracy = s["accuracy"]
        accuracy_ok = bool(accuracy) and all(a is not None and a <= ACCURACY_LIMIT for a in accuracy.values())
        out.append(f"  {engine.label}:")
        out.append(f"    ratio <= {RATIO_TARGET}:        {'MET' if ratio_ok else 'NOT MET'}  ({ratio_text or 'no ORT run'})")
        out.append(f"    geometric mean <= {fmt(target, 'g')}: {'MET' if geomean_ok else 'NOT MET'}  "
                   f"({fmt(geomean, '.3f')} over {len(measured)} of {len(ratios)} models)")
        out.append(f"    resnet50 >= {100 * PEAK_TARGET:.0f}% of peak: "
                   f"{'MET' if peak_ok else 'NOT MET'}  ({'not run' if peak is None else f'{100 * peak:.1f}%'})")
        if args.fast_math:
            out.append("    accuracy:             fast-math: " +
                       ", ".join(f"{m} {fmt(a, '.2e')}" for m, a in accuracy.items()) + " (reported, not checked)")
        else:
            out.append(f"    accuracy:             {'PASS' if accuracy_ok else 'FAIL'}  (" +
                       ", ".join(f"{m} {fmt(a, '.2e')}" for m, a in accuracy.items()) + ")")
        verdicts[engine.label] = {"ratio_met": ratio_ok, "geomean": geomean, "geomean_met": geomean_ok, "peak_met": peak_ok,
                                  "accuracy_pass": accuracy_ok if not args.fast_math else None}
    return out, verdicts


# ---- Main -----------------------------------------------------------------------------------

def measure_peak(args):
    """The fp32 FMA peak on --threads threads (bin/backplane_fma_peak), or None without it."""
    if not os.path.exists(args.fma_peak):
        return None
    try:
        return run_json([args.fma_peak, "--threads", str(args.threads)], timeout=120)
    except EngineError as error:
        log(f"backplane_fma_peak failed: {error}")
        return None


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build", help="the build folder with bin/sdk-run (default: build)")
    parser.add_argument("--baseline", metavar="BUILD",
                        help="another build folder (e.g. of the commit before a change): its sdk-run "
                             "runs every --backends configuration too, interleaved, and each model "
                             "reports the paired change of this build against it")
    parser.add_argument("--backends", action="append", metavar="A,B,...",
                        help="sdk-run --backends for one Backplane configuration; repeat to time "
                             "several (e.g. --backends CpuOneDnn,CpuRef --backends CpuRef). "
                             "Default: CpuOneDnn,CpuRef")
    parser.add_argument("--models", default=",".join(peer_models.ZOO),
                        help=f"comma-separated models: bert_base, torchvision model names, the op-set "
                             f"families' models ({','.join(peer_models.family_models.FAMILY_MODELS)}) or "
                             f"'families' for all of those (default: the zoo, {','.join(peer_models.ZOO)})")
    parser.add_argument("--peers", default="ort,torch", help="peers to time: ort, torch (default: both)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    parser.add_argument("--iterations", type=int, default=20, help="timed runs per engine per round (default 20)")
    parser.add_argument("--bert-iterations", type=int, default=10, help="the same for bert_base (default 10)")
    parser.add_argument("--warmup", type=int, default=3, help="untimed runs before them (default 3)")
    parser.add_argument("--threads", type=int, default=2, help="intra-op threads of every engine (default 2)")
    parser.add_argument("--peak-gflops", type=float, default=300.0,
                        help="the machine's fp32 peak for the %% of peak column (default 300)")
    parser.add_argument("--torch-budget-s", type=float, default=60.0,
                        help="PyTorch's timed runs stop after this many seconds per round (at least "
                             "3 runs): Debian's PyTorch takes ~10 s per BERT inference (default 60)")
    parser.add_argument("--fast-math", action="store_true",
                        help="pass --backend-option CpuOneDnn:fast_math=1 to sdk-run and report the "
                             "accuracy loss instead of failing on it")
    parser.add_argument("--models-dir", help="model cache (default: <build>/bench-models)")
    parser.add_argument("--ort-version", default=ORT_VERSION,
                        help=f"the onnxruntime-node version to install and time (default {ORT_VERSION})")
    parser.add_argument("--peers-dir", help="ONNX Runtime npm install (default: <build>/bench-peers-<version>)")
    parser.add_argument("--node", default="node")
    parser.add_argument("--npm", default="npm")
    parser.add_argument("--omp-wait-policy", default="default", choices=["default", "passive", "active"],
                        help="OMP_WAIT_POLICY for every engine's process (the OpenMP threads of "
                             "PyTorch and oneDNN). default: leave the environment alone. passive "
                             "stops idle OpenMP threads spinning, which helps a lot on a busy "
                             "machine, but ONNX Runtime's own pool keeps spinning (onnxruntime-node "
                             "cannot turn that off), so it favours the OpenMP engines")
    parser.add_argument("--keep-going", action="store_true",
                        help="retry an engine on a model every round even after it failed")
    parser.add_argument("--json", metavar="FILE", help="also write every number as JSON to FILE")
    args = parser.parse_args()
    args.backends = args.backends or ["CpuOneDnn,CpuRef"]
    args.models_dir = args.models_dir or os.path.join(args.build, "bench-models")
    args.peers_dir = os.path.abspath(args.peers_dir or os.path.join(args.build, "bench-peers-" + args.ort_version))
    args.fma_peak = os.path.join(args.build, "bin", "backplane_fma_peak")
    args.measured_peak = None
    if args.omp_wait_policy != "default":
        os.environ["OMP_WAIT_POLICY"] = args.omp_wait_policy.upper()  # inherited by every engine
    if args.models == "families":
        args.models = ",".join(peer_models.family_models.FAMILY_MODELS)
    args.tools = BuildTools(args.build)
    args.baseline_tools = BuildTools(args.baseline) if args.baseline else None
    for name in args.models.split(","):
        if not peer_models.is_known(name):
            sys.exit(f"run_peers.py: unknown model {name} (bert_base, a torchvision model, e.g. "
                     f"{', '.join(peer_models.ZOO)}, or a family model: "
                     f"{', '.join(peer_models.family_models.FAMILY_MODELS)})")
    if args.rounds < 1 or args.iterations < 1 or args.bert_iterations < 1 or args.warmup < 0:
        sys.exit("run_peers.py: --rounds and --iterations must be >= 1, --warmup >= 0")
    return args


def main():
    args = parse_arguments()
    peers = [p for p in args.peers.split(",") if p]
    engines = []
    if "ort" in peers:
        ort = OnnxRuntime(args)
        ort.install()
        engines.append(ort)
    if "torch" in peers:
        engines.append(PyTorch(args))
    engines += [Backplane(args, backends, args.tools) for backends in args.backends]
    if args.baseline_tools:
        engines += [Backplane(args, backends, args.baseline_tools, baseline=True) for backends in args.backends]

    models = {}
    for name in args.models.split(","):
        files = peer_models.ensure_model(args.models_dir, name, log=log)
        models[name] = {"files": files, "gflop": flop_count.gflop(files["onnx"], args.tools.sdk_run, args.tools.env),
                        "reference": {"output": peer_models.ensure_reference(files)}}

    header = machine_description(args, engines)
    for engine in engines:
        if engine.key in ("backplane", "baseline"):
            example = engine.command(models[next(iter(models))]["files"], args.iterations, args.warmup, "DIR")
            header.append(f"Command   {' '.join(example)}")
    for line in header:
        log(line)
    started = time.time()
    # The peak before and after the runs (the machine is shared): the better of the two.
    peaks = [p for p in (measure_peak(args),) if p]
    results = measure(args, engines, models)
    peaks += [p for p in (measure_peak(args),) if p]
    if peaks:
        args.measured_peak = max(p["gflops"] for p in peaks)
        measured = " and ".join(str(round(p["gflops"])) for p in peaks)
        header.append(f"Peak      fp32 FMA loop on {args.threads} threads ({peaks[0]['isa']}): {measured} GFLOP/s "
                      f"before and after the runs; '% meas' is of {args.measured_peak:.0f}, '% peak' of "
                      f"--peak-gflops {args.peak_gflops:g}")
    else:
        header.append(f"Peak      not measured (no {args.fma_peak}); '% peak' is of --peak-gflops {args.peak_gflops:g}")
    lines, verdicts = report(args, engines, models, results)
    print("\n".join(header))
    print(f"Rounds    {args.rounds}, engines in rotating order; the median is over rounds of each "
          f"round's median ({time.time() - started:.0f} s in all)")
    print("\n".join(lines))
    try:
        load = os.getloadavg()
        print(f"Load      {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} (1, 5, 15 min) after the runs")
    except OSError:
        pass
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"header": header, "models": {n: {"gflop": m["gflop"]} for n, m in models.items()},
                       "results": results, "verdicts": verdicts, "fast_math": args.fast_math,
                       "threads": args.threads, "peak_gflops": args.peak_gflops,
                       "measured_peak_gflops": args.measured_peak}, f, indent=1)


if __name__ == "__main__":
    main()
