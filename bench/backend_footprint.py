#!/usr/bin/python3
"""What registering a backend that takes no layer costs a process (issue 43: lazy device init).

Runs `sdk-run --model M --backends B -n 1 --warmup 0` as a fresh process over two backend
folders: every bundled backend (the build's or the installation's folder), and a scratch copy of
the CPU backends alone. Each process's peak resident memory (wait4's ru_maxrss) and wall time
are taken; the two set-ups alternate for --rounds rounds and the table shows medians and the
difference. Target (issue 43): the difference in resident memory within 10 MB, i.e. GpuOpenCl
registered but unused initialises no OpenCL device.

  bench/backend_footprint.py --build build [--model tests/data/cnn.onnx] [--rounds 7]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def run_once(sdk_run, folder, model, backends):
    """(peak resident MiB, wall ms) of one sdk-run process over `folder`."""
    environment = dict(os.environ, BACKPLANE_BACKEND_PATHS=folder)
    command = [sdk_run, "--model", model, "--backends", backends, "-n", "1", "--warmup", "0"]
    start = time.perf_counter()
    process = subprocess.Popen(command, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall_ms = (time.perf_counter() - start) * 1000
    stderr = process.stderr.read().decode(errors="replace")
    process.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(command)} (BACKPLANE_BACKEND_PATHS={folder}) failed:\n{stderr}")
    return usage.ru_maxrss / 1024, wall_ms


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build", help="build folder (bin/sdk-run, lib/backplane/backends)")
    parser.add_argument("--model", default="tests/data/cnn.onnx")
    parser.add_argument("--backends", default="CpuOneDnn,CpuRef", help="what sdk-run may place layers on")
    parser.add_argument("--rounds", type=int, default=7)
    arguments = parser.parse_args()

    sdk_run = os.path.abspath(os.path.join(arguments.build, "bin", "sdk-run"))
    bundled = os.path.abspath(os.path.join(arguments.build, "lib", "backplane", "backends"))
    with tempfile.TemporaryDirectory(prefix="backplane-footprint-") as cpu_only:
        copied = [name for name in os.listdir(bundled) if name.startswith("Backplane_Cpu")]
        for name in copied:
            shutil.copy2(os.path.join(bundled, name), cpu_only)
        setups = {"all bundled backends": bundled, "CPU backends only": cpu_only}
        samples = {name: [] for name in setups}
        for round_index in range(arguments.rounds):
            order = list(setups) if round_index % 2 == 0 else list(reversed(setups))
            for name in order:
                samples[name].append(run_once(sdk_run, setups[name], arguments.model, arguments.backends))

    print(f"sdk-run --backends {arguments.backends} on {arguments.model}, {arguments.rounds} interleaved rounds, "
          f"medians")
    print("| backend folder | peak resident MiB | wall ms |")
    print("|---|---|---|")
    medians = {}
    for name, values in samples.items():
        rss = statistics.median(v[0] for v in values)
        wall = statistics.median(v[1] for v in values)
        medians[name] = (rss, wall)
        print(f"| {name} | {rss:.1f} | {wall:.0f} |")
    (rss_all, wall_all), (rss_cpu, wall_cpu) = medians.values()
    print(f"| difference | {rss_all - rss_cpu:+.1f} | {wall_all - wall_cpu:+.0f} |")


if __name__ == "__main__":
    main()
