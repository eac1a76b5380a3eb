#!/usr/bin/env python3
"""Determinism: the same configuration, workload and inputs give identical statistics.
Runs a workload twice in timing mode (detailed memory) and compares the JSON reports,
ignoring host wall-clock time and rates derived from it.

    tests/determinism.py WARPSIM WORKLOAD [extra warpsim run options...]
"""
import json, os, subprocess, sys, tempfile


def strip(o):
    if isinstance(o, dict):
        return {k: strip(v) for k, v in o.items() if "host" not in k and "per_sec" not in k}
    if isinstance(o, list):
        return [strip(v) for v in o]
    return o


warpsim, workload, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
with tempfile.TemporaryDirectory() as d:
    runs = []
    for i in range(2):
        out = os.path.join(d, f"r{i}.json")
        subprocess.run([warpsim, "run", "--mode", "timing", "--no-report", "--json", out] + extra +
                       [workload, "--size", "small", "--quiet"], check=True, stdout=subprocess.DEVNULL)
        runs.append(strip(json.load(open(out))))
    if runs[0] != runs[1]:
        sys.exit(f"determinism: {workload}: two identical runs gave different statistics")
print(f"determinism: {workload}: identical statistics")
