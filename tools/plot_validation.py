#!/usr/bin/env python3
"""Log-log scatter of warpsim's cycles against GPGPU-Sim's, from tools/validate.py --json files.

usage: tools/plot_validation.py OUT.png RESULT.json[#LABEL] [RESULT.json[#LABEL] ...]

One marker series per JSON file (labelled "LABEL" or "SIZE SCHED" from its summary), the line y = x and
the ±30 % band of issue 21's target. Needs matplotlib (Debian: python3-matplotlib; installed by
tools/deps.sh with WARPSIM_PLOTS=1); nothing else in the project does, so without it this
script says so and exits 3.
"""
import json
import sys


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot_validation: matplotlib is not installed (apt-get install python3-matplotlib, "
              "or WARPSIM_PLOTS=1 tools/deps.sh)", file=sys.stderr)
        return 3
    out, files = sys.argv[1], sys.argv[2:]
    fig, ax = plt.subplots(figsize=(6.4, 6.0), dpi=120)
    lo, hi = float("inf"), 0.0
    markers = ["o", "s", "^", "D", "v", "P"]
    for k, arg in enumerate(files):
        path, _, name = arg.partition("#")
        with open(path) as f:
            d = json.load(f)
        s, rows = d["summary"], d["rows"]
        xs = [r["peer_cycles"] for r in rows]
        ys = [r["ws_cycles"] for r in rows]
        lo, hi = min(lo, *xs, *ys), max(hi, *xs, *ys)
        label = (f"{name or (s['size'] + ' ' + s['sched'])}: geomean {s['geomean']:.2f}, "
                 f"{s['within30']}/{s['n']} within ±30 %")
        ax.scatter(xs, ys, s=22, marker=markers[k % len(markers)], alpha=0.8, label=label)
        if k == 0:
            for r in rows:
                if abs(r["ratio"] - 1) > 0.30:
                    ax.annotate(r["workload"], (r["peer_cycles"], r["ws_cycles"]), fontsize=7,
                                xytext=(3, 3), textcoords="offset points")
    lo, hi = lo / 1.5, hi * 1.5
    ax.plot([lo, hi], [lo, hi], "k-", lw=0.8, label="warpsim = GPGPU-Sim")
    ax.fill_between([lo, hi], [lo * 0.7, hi * 0.7], [lo * 1.3, hi * 1.3], color="0.85",
                    label="±30 %", zorder=0)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_xlabel("GPGPU-Sim 4.2 (SM2_GTX480) cycles")
    ax.set_ylabel("warpsim (gtx480) cycles")
    ax.set_title("warpsim vs GPGPU-Sim, workload by workload")
    ax.legend(fontsize=7, loc="upper left")
    ax.grid(True, which="both", lw=0.3)
    fig.tight_layout()
    fig.savefig(out)
    print(f"plot_validation: wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
