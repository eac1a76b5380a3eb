#!/usr/bin/env python3
"""The L1D model against a plain LRU replay of its own access trace (mem.trace_l1d,
tools/l1trace.py): with the Fermi hash and with the linear set index, an accepted load of
SM 0 must hit in the replay exactly when the simulator reported a hit or an MSHR merge (an
allocate-on-miss LRU cache sees a line as present from its miss on), on at least 99.9 % of
the loads without, 99.5 % with the L1D latency queue (l1d.latency_queue, docs/VALIDATION.md F13): the
replay does not know which lines are still reserved for an outstanding fill, which the model
never evicts (it takes the next least recently used line): 7 of 33,468 loads of bicg, 6 of
34,596 of mvt differed that way without the latency queue; with it more fills are
outstanding when a set is full, and about 90 of mvt's loads differ (agreement 0.9973; bicg 1.000).
usage: WARPSIM"""
import os
import subprocess
import sys
import tempfile

warpsim = sys.argv[1]
tool = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools", "l1trace.py")
rc = 0
with tempfile.TemporaryDirectory() as d:
    for wl, idx in (("bicg", "fermi-hash"), ("mvt", "linear"), ("lud", "fermi-hash")):
        tr = os.path.join(d, f"{wl}-{idx}.trace")
        subprocess.run([warpsim, "run", "--mode", "timing", "--no-report", "--quiet",
                        "--set", f"mem.trace_l1d={tr}", "--set", f"l1d.set_index={idx}",
                        wl, "--size", "small"], check=True, stdout=subprocess.DEVNULL)
        if not os.path.getsize(tr):
            print(f"{wl}: empty trace")
            rc = 1
            continue
        r = subprocess.run([sys.executable, tool, tr, "--set-index", idx, "--min-agree", "0.995"])
        rc |= r.returncode
sys.exit(rc)
