#!/usr/bin/env python3
"""Compare warpsim's cycles with GPGPU-Sim's (the calibration peer), workload by workload.

usage: tools/validate.py [--warpsim build/warpsim] [--peer tests/data/peer_cycles.csv]
                         [--size small] [--sched gto] [--set KEY=VALUE ...] [-j N]
                         [--csv OUT.csv] [--json OUT.json] [--reuse A.json ...] [--markdown] [--check]

Reads GPGPU-Sim's cycles (and instruction counts, L1D/L2 statistics) saved by
tools/peer_extract.py, runs warpsim on the same workloads at the same size and scheduling
policy (timing mode, the gtx480 preset unless --config/--set say otherwise), and prints per
workload: cycles on both, ws/peer, warp instructions on both, L1D and L2 miss rates on both;
then the geometric mean of ws/peer, the mean absolute error |ws/peer - 1|, the count within
±30 %, and the correlation of log cycles. No GPGPU-Sim is needed.

--reuse takes warpsim's results from earlier --json outputs (same size, policy and settings:
the caller's word) instead of running those workloads again; the GPGPU-Sim columns are read
from the peer data anew. Long default-size runs can so be made in parts and summarised once.

--check exits 1 when the geometric mean leaves [--gmin, --gmax] (0.90-1.10) or fewer than
--within-min (75 %) of the workloads lie within ±30 % (issue 21's targets); CTest runs it.
"""
import argparse
import concurrent.futures as cf
import csv
import json
import math
import os
import subprocess
import sys
import tempfile


def load_peer(path, size, sched, only=None):
    rows = []
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r["size"] != size or r["sched"] != sched:
                continue
            if only and r["workload"] not in only:
                continue
            rows.append(r)
    return rows


def run_ws(warpsim, workload, size, sched, sets, config, tmpdir):
    out = os.path.join(tmpdir, f"{workload}-{size}-{sched}.json")
    cmd = [warpsim, "run", "--mode", "timing", "--sched", sched, "--no-report", "--json", out]
    if config:
        cmd += ["--config", config]
    for s in sets:
        cmd += ["--set", s]
    cmd += [workload, "--size", size]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        return {"error": f"exit {p.returncode}: {p.stdout.strip().splitlines()[-1:]}"}
    with open(out) as f:
        d = json.load(f)
    L = d["launches"]
    s = lambda k: sum(l.get(k, 0) or 0 for l in L)
    # GPGPU-Sim's convention (cache_stats::get_sub_stats): an access merged into an
    # outstanding miss (HIT_RESERVED) is an access but not a miss; a write that misses a
    # no-write-allocate cache is a miss. So misses = misses + bypasses, merges are not.
    def level(name):
        acc = sum(l["mem"][name]["accesses"] for l in L if "mem" in l)
        miss = sum(l["mem"][name]["misses"] + l["mem"][name].get("bypasses", 0) for l in L if "mem" in l)
        return acc, miss
    l1_acc, l1_miss = level("l1d")
    l2_acc, l2_miss = level("l2")
    return {
        "cycles": s("cycles"), "warp_insts": s("warp_insts"), "kernels": len(L),
        "l1d_accesses": l1_acc, "l1d_misses": l1_miss,
        "l2_accesses": l2_acc, "l2_misses": l2_miss,
        "ctas_per_sm": L[0].get("ctas_per_sm") if L else None,
    }


def rate(m, a):
    try:
        return float(m) / float(a) if float(a) else None
    except (TypeError, ValueError):
        return None


def pearson(x, y):
    n = len(x)
    if n < 2:
        return float("nan")
    mx, my = sum(x) / n, sum(y) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    sxx = sum((a - mx) ** 2 for a in x)
    syy = sum((b - my) ** 2 for b in y)
    return sxy / math.sqrt(sxx * syy) if sxx and syy else float("nan")


def summarise(rows):
    ratios = [r["ratio"] for r in rows]
    n = len(ratios)
    if n == 0:
        return {"n": 0}
    gm = math.exp(sum(math.log(x) for x in ratios) / n)
    mae = sum(abs(x - 1) for x in ratios) / n
    within = sum(1 for x in ratios if abs(x - 1) <= 0.30)
    lp = [math.log(r["peer_cycles"]) for r in rows]
    lw = [math.log(r["ws_cycles"]) for r in rows]
    return {"n": n, "geomean": gm, "mae": mae, "within30": within,
            "within30_frac": within / n, "corr_log": pearson(lp, lw),
            "corr": pearson([r["peer_cycles"] for r in rows], [r["ws_cycles"] for r in rows])}


def fmt_rate(x):
    return "-" if x is None else f"{x:.2f}"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--warpsim", default=os.path.join(root, "build", "warpsim"))
    ap.add_argument("--peer", default=os.path.join(root, "tests", "data", "peer_cycles.csv"))
    ap.add_argument("--size", default="small")
    ap.add_argument("--sched", default="gto")
    ap.add_argument("--config", default=None)
    ap.add_argument("--set", action="append", default=[], help="warpsim --set KEY=VALUE")
    ap.add_argument("--only", nargs="*", help="workloads (default: every one in the peer data)")
    ap.add_argument("-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--csv", help="write the per-workload rows here")
    ap.add_argument("--json", help="write rows and summary here (tools/plot_validation.py reads it)")
    ap.add_argument("--reuse", nargs="+", default=[],
                    help="earlier --json outputs whose warpsim results to take instead of running")
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    ap.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    ap.add_argument("--gmin", type=float, default=0.90)
    ap.add_argument("--gmax", type=float, default=1.10)
    ap.add_argument("--within-min", type=float, default=0.75)
    a = ap.parse_args()

    peer = load_peer(a.peer, a.size, a.sched, a.only)
    if not peer:
        print(f"validate: no GPGPU-Sim rows for size {a.size}, sched {a.sched} in {a.peer}",
              file=sys.stderr)
        return 2
    reuse = {}
    for path in a.reuse:
        with open(path) as f:
            for r in json.load(f)["rows"]:
                reuse[r["workload"]] = {"cycles": r["ws_cycles"], "warp_insts": r["ws_warp_insts"],
                                        "kernels": r["kernels"], "ctas_per_sm": r["ws_ctas_per_sm"],
                                        "l1d_rate": r["ws_l1d_miss"], "l2_rate": r["ws_l2_miss"]}
    rows, errors = [], []

    def add(p, w):
        pc = int(p["cycles"])
        rows.append({
            "workload": p["workload"], "peer_cycles": pc, "ws_cycles": w["cycles"],
            "ratio": w["cycles"] / pc,
            "peer_warp_insts": int(p["warp_insts"]) if p.get("warp_insts") else None,
            "ws_warp_insts": w["warp_insts"],
            "kernels": w["kernels"],
            "peer_l1d_miss": rate(p.get("l1d_misses"), p.get("l1d_accesses")),
            "ws_l1d_miss": w["l1d_rate"] if "l1d_rate" in w else rate(w["l1d_misses"], w["l1d_accesses"]),
            "peer_l2_miss": rate(p.get("l2_misses"), p.get("l2_accesses")),
            "ws_l2_miss": w["l2_rate"] if "l2_rate" in w else rate(w["l2_misses"], w["l2_accesses"]),
            "peer_ctas_per_sm": p.get("ctas_per_sm") or None,
            "ws_ctas_per_sm": w["ctas_per_sm"],
        })

    with tempfile.TemporaryDirectory(prefix="ws-validate-") as tmp, \
            cf.ThreadPoolExecutor(max_workers=max(1, a.j)) as ex:
        futs = {ex.submit(run_ws, a.warpsim, p["workload"], a.size, a.sched, a.set, a.config, tmp): p
                for p in peer if p["workload"] not in reuse}
        for p in peer:
            if p["workload"] in reuse:
                add(p, reuse[p["workload"]])
        for fu in cf.as_completed(futs):
            p, w = futs[fu], fu.result()
            if "error" in w:
                errors.append(f"{p['workload']}: warpsim {w['error']}")
                continue
            add(p, w)
    rows.sort(key=lambda r: r["workload"])
    summ = summarise(rows)
    summ.update(size=a.size, sched=a.sched, sets=a.set)

    if a.markdown:
        print("| workload | GPGPU-Sim cycles | warpsim cycles | ws/peer | warp insts peer | warp insts ws "
              "| L1D miss peer | L1D miss ws | L2 miss peer | L2 miss ws |")
        print("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
        for r in rows:
            flag = "" if abs(r["ratio"] - 1) <= 0.30 else " **"
            print(f"| {r['workload']} | {r['peer_cycles']:,} | {r['ws_cycles']:,} | "
                  f"{r['ratio']:.2f}{flag} | {r['peer_warp_insts'] or 0:,} | {r['ws_warp_insts']:,} | "
                  f"{fmt_rate(r['peer_l1d_miss'])} | {fmt_rate(r['ws_l1d_miss'])} | "
                  f"{fmt_rate(r['peer_l2_miss'])} | {fmt_rate(r['ws_l2_miss'])} |")
    else:
        print(f"{'workload':20s} {'peer':>10s} {'warpsim':>10s} {'ws/peer':>8s}  insts(peer/ws)")
        for r in rows:
            print(f"{r['workload']:20s} {r['peer_cycles']:10d} {r['ws_cycles']:10d} {r['ratio']:8.2f}"
                  f"  {r['peer_warp_insts']}/{r['ws_warp_insts']}"
                  f"{'' if abs(r['ratio'] - 1) <= 0.30 else '   <-- outside 30 %'}")
    for e in errors:
        print(f"error: {e}", file=sys.stderr)
    if summ["n"]:
        print(f"\n{a.size} {a.sched}{' ' + ' '.join(a.set) if a.set else ''}: {summ['n']} workloads, "
              f"geomean ws/peer {summ['geomean']:.3f}, mean abs. error {summ['mae'] * 100:.1f} %, "
              f"within ±30 %: {summ['within30']}/{summ['n']} ({summ['within30_frac'] * 100:.0f} %), "
              f"correlation (log cycles) {summ['corr_log']:.3f}")
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
            w.writeheader()
            w.writerows(rows)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"summary": summ, "rows": rows}, f, indent=1)
    if a.check:
        ok = True
        if errors:
            print("check: FAIL (warpsim failed on some workloads)")
            ok = False
        if not (a.gmin <= summ["geomean"] <= a.gmax):
            print(f"check: FAIL geomean {summ['geomean']:.3f} outside [{a.gmin}, {a.gmax}]")
            ok = False
        if summ["within30_frac"] < a.within_min:
            print(f"check: FAIL {summ['within30']}/{summ['n']} within ±30 % < {a.within_min * 100:.0f} %")
            ok = False
        if ok:
            print("check: PASS")
        return 0 if ok else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
