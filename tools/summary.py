#!/usr/bin/env python3
"""A newcomer's summary of a timing run: what a cycle-level simulator tells you.

    tools/summary.py REPORT.json [--png FILE]

Reads the JSON report of `warpsim run --json` (docs/STATS.md) and prints, in a dozen
lines: cycles, IPC, where the schedulers' issue slots went (issued, or lost to which
stall), the L1D and L2 hit ratios, and how fast the simulator ran. With --png (and
matplotlib), draws the issue-slot breakdown as a stacked bar per kernel, PNG and PDF.
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "experiments"))

# issue-slot buckets of the timing model (docs/STATS.md), in the order drawn
SLOTS = [("slot_issued", "issued"), ("slot_scoreboard", "waiting on a register (incl. pending loads)"),
         ("slot_mem_stall", "LD/ST pipeline stalled (memory)"), ("slot_ibuf_empty", "no decoded instruction (fetch)"),
         ("slot_unit_busy", "functional unit busy"), ("slot_barrier", "waiting at a barrier"),
         ("slot_done", "warps finished"), ("idle_slots", "no warp assigned (idle)")]


def si(v):
    for lim, suf in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(v) >= lim:
            return f"{v / lim:.2f}{suf}"
    return f"{v:.0f}" if float(v).is_integer() else f"{v:.3g}"


def pct(v):
    return "n/a" if v is None else f"{100 * v:.1f} %"


def ratio(t, hits, acc):
    a = t.get(acc)
    return t[hits] / a if a else None


def summary(doc):
    t = doc.get("total", {})
    if not t.get("cycles"):
        return ["(functional run: no cycles; run with --mode timing for the cycle-level summary)"], None
    lines = []
    names = sorted({l.get("kernel", "?") for l in doc.get("launches", [])})
    lines.append(f"Summary ({len(doc.get('launches', []))} launch(es) of {', '.join(names)}; "
                 f"{doc.get('config_source', '')})")
    lines.append(f"  cycles            {t['cycles']:,}  ({si(t['warp_insts'])} warp instructions)")
    lines.append(f"  IPC               {t['warp_insts'] / t['cycles']:.3f} warp instructions per cycle over the GPU "
                 f"({t['warp_insts'] / t['cycles'] / max(1, doc.get('config', {}).get('gpu', {}).get('n_sm', 1) or 1):.3f} per SM)")
    slots = t.get("sched_slots") or 0
    if slots:
        lines.append("  issue slots       where the warp schedulers' slots went:")
        for k, label in SLOTS:
            v = t.get(k, 0)
            if v:
                lines.append(f"    {100 * v / slots:5.1f} %  {label}")
    lines.append(f"  L1D hit ratio     {pct(ratio(t, 'l1d_hits', 'l1d_accesses'))}   "
                 f"L2 hit ratio {pct(ratio(t, 'l2_hits', 'l2_accesses'))}"
                 + ("" if "l1d_accesses" in t else "  (mem.model=simple: no caches)"))
    hs = t.get("host_seconds") or 0
    if hs:
        lines.append(f"  simulation speed  {si(t['cycles'] / hs)} cycles/s, {si(t['warp_insts'] / hs)} warp "
                     f"instructions/s ({hs:.1f} s on this host)")
    return lines, t


def breakdown_png(doc, path):
    import plots
    if plots.pyplot() is None:
        return None, plots.unavailable()
    rows, vals = [], {}
    per = {}
    for l in doc.get("launches", []):
        k = l.get("kernel", "?")
        for key, label in SLOTS:
            per.setdefault(k, {}).setdefault(label, 0)
            per[k][label] += l.get(key, 0) or 0
    for k, d in per.items():
        rows.append(k)
        for label, v in d.items():
            vals[(k, label)] = v
    if len(rows) > 1:
        rows.append("all kernels")
        for _, label in SLOTS:
            vals[("all kernels", label)] = sum(per[k][label] for k in per)
    fig = plots.stacked_chart("Where the issue slots went", rows, [label for _, label in SLOTS], vals,
                              "share of scheduler issue slots (%)", "kernel", shares=True)
    stem = os.path.splitext(path)[0]
    return plots.save(fig, stem)[0], ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("report")
    ap.add_argument("--png", help="write the issue-slot breakdown here (and a PDF beside it)")
    a = ap.parse_args()
    with open(a.report) as f:
        doc = json.load(f)
    lines, t = summary(doc)
    if t is not None and a.png:
        p, why = breakdown_png(doc, a.png)
        lines.append(f"  breakdown figure  {p}" if p else f"  (no figure: {why})")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
