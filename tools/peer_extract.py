#!/usr/bin/env python3
"""Extract GPGPU-Sim results from the run directories of ../shared/peer/bench-on-peer.sh.

usage: tools/peer_extract.py [--date YYYY-MM-DD] RUN_DIR... > rows.csv

A run directory is OUT/run-WORKLOAD-SIZE-SCHED (it holds GPGPU-Sim's stdout as `log`).
Prints one CSV row per directory whose workload PASSed on GPGPU-Sim, in the column order of
tests/data/peer_cycles.csv (tools/validate.py reads it):

  date, peer_commit, size, sched, workload, cycles, warp_insts, kernels,
  l1d_accesses, l1d_misses, l2_accesses, l2_misses, ctas_per_sm

cycles = the last gpu_tot_sim_cycle (all launches, back to back, as warpsim's sum of launch
cycles); warp_insts = gpgpu_n_tot_w_icount; the L1D/L2 counts are GPGPU-Sim's
L1D_total_cache_* and L2_total_cache_* of the whole run (its L2 is sectored: one access per
32-byte sector, so only the miss *rate* compares with warpsim's line-based L2);
ctas_per_sm = "CTA/core" of the first kernel. Directories whose workload failed or
timed out are listed on stderr.
"""
import argparse
import datetime
import os
import re
import sys

PEER_COMMIT = "667834cf"
COLUMNS = ["date", "peer_commit", "size", "sched", "workload", "cycles", "warp_insts", "kernels",
           "l1d_accesses", "l1d_misses", "l2_accesses", "l2_misses", "ctas_per_sm"]


def last_int(pattern, text):
    m = re.findall(pattern, text)
    return int(m[-1]) if m else None


def extract(run_dir):
    base = os.path.basename(os.path.normpath(run_dir))
    m = re.match(r"run-(.+)-(small|default|large|paper)-([a-z_0-9]+)$", base)
    if not m:
        raise ValueError(f"{run_dir}: not a run-WORKLOAD-SIZE-SCHED directory")
    workload, size, sched = m.groups()
    try:
        with open(os.path.join(run_dir, "log"), errors="replace") as f:
            text = f.read()
    except OSError as e:
        return None, f"{workload} {size} {sched}: no log ({e.strerror})"
    if not re.search(rf"^{re.escape(workload)} \[{size}\]: PASS", text, re.M):
        why = "FAIL" if re.search(rf"^{re.escape(workload)} \[{size}\]: FAIL", text, re.M) else "no result"
        return None, f"{workload} {size} {sched}: {why} on GPGPU-Sim"
    cyc = last_int(r"gpu_tot_sim_cycle = (\d+)", text)
    if cyc is None:
        return None, f"{workload} {size} {sched}: no gpu_tot_sim_cycle"
    cta = re.search(r"CTA/core = (\d+)", text)
    row = {
        "size": size, "sched": sched, "workload": workload, "cycles": cyc,
        "warp_insts": last_int(r"gpgpu_n_tot_w_icount = (\d+)", text),
        "kernels": len(re.findall(r"^kernel_name = ", text, re.M)),
        "l1d_accesses": last_int(r"L1D_total_cache_accesses = (\d+)", text),
        "l1d_misses": last_int(r"L1D_total_cache_misses = (\d+)", text),
        "l2_accesses": last_int(r"L2_total_cache_accesses = (\d+)", text),
        "l2_misses": last_int(r"L2_total_cache_misses = (\d+)", text),
        "ctas_per_sm": int(cta.group(1)) if cta else None,
    }
    return row, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--date", default=datetime.date.today().isoformat())
    ap.add_argument("--header", action="store_true", help="print the CSV header first")
    ap.add_argument("dirs", nargs="+")
    a = ap.parse_args()
    if a.header:
        print(",".join(COLUMNS))
    for d in a.dirs:
        row, err = extract(d)
        if err:
            print(err, file=sys.stderr)
            continue
        row.update(date=a.date, peer_commit=PEER_COMMIT)
        print(",".join("" if row[c] is None else str(row[c]) for c in COLUMNS))


if __name__ == "__main__":
    main()
