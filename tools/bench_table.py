#!/usr/bin/env python3
"""Measures every workload with `warpsim run --json` (functional mode) and prints a
markdown table: launches, warp/thread instructions, SIMD efficiency and the
instruction mix in percent. Used to regenerate the table in bench/README.md:

    tools/bench_table.py [--size default] [--warpsim build/warpsim] > table.md
"""
import argparse, json, os, subprocess, sys, tempfile

ap = argparse.ArgumentParser()
ap.add_argument("--size", default="default")
ap.add_argument("--warpsim", default="build/warpsim")
ap.add_argument("names", nargs="*")
a = ap.parse_args()

names = a.names
if not names:
    out = subprocess.run([a.warpsim, "list"], capture_output=True, text=True, check=True).stdout
    names, on = [], False
    for line in out.splitlines():
        if line.startswith("workloads"):
            on = True
            continue
        if on and not line.strip():
            break
        if on:
            names.append(line.split()[0])

cols = [("alu", "alu"), ("sfu", "sfu"), ("dp", "dp"), ("ld_global", "ldg"), ("st_global", "stg"),
        ("ld_shared", "lds"), ("st_shared", "sts"), ("ld_local", "ldl"), ("st_local", "stl"),
        ("ld_const", "ldc"), ("atomic", "atom"), ("ctrl", "ctrl"), ("barrier", "bar"), ("warp", "warp")]
print(f"Measured at `--size {a.size}` in functional mode (`tools/bench_table.py`). Mix columns are "
      "percent of warp instructions: alu, sfu, dp (double), ldg/stg global, lds/sts shared, "
      "ldl/stl local, ldc constant, atom atomics, ctrl control flow, bar barriers, warp collectives.\n")
print("| workload | launches | warp insts | thread insts | SIMD eff. | " + " | ".join(c[1] for c in cols) + " |")
print("|---" * (5 + len(cols)) + "|")
with tempfile.TemporaryDirectory() as d:
    for n in names:
        p = os.path.join(d, n + ".json")
        r = subprocess.run([a.warpsim, "run", "--no-report", "--json", p, n, "--size", a.size, "--quiet"],
                           capture_output=True, text=True)
        if r.returncode != 0 or not os.path.exists(p):
            print(f"| {n} | FAILED |" + " |" * (3 + len(cols)))
            continue
        t = json.load(open(p))["total"]
        w = t["warp_insts"]
        mix = " | ".join(f"{100.0 * t.get('mix_' + c[0], 0) / w:.1f}" if t.get('mix_' + c[0], 0) else "" for c in cols)
        print(f"| {n} | {t['launches']} | {w:,} | {t['thread_insts']:,} | {t['thread_insts'] / (w * 32):.3f} | {mix} |")
