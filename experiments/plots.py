"""Figures of the experiments and sweeps, drawn with matplotlib (Debian python3-matplotlib,
installed by tools/deps.sh), written as PNG and PDF.

The styles of the seeds' figures:
- bar_chart(table): grouped bars, one group per row (workload) plus the mean rows, one
  bar per column (policy / configuration), a dashed line at the baseline of a
  normalised table, FAIL and n/a written where a bar is missing;
- stacked_chart(...): stacked bars of a breakdown (issue slots, stall causes), one bar
  per row, segments in shares or absolute values;
- line_chart(...): one line per series over a numeric x (e.g. MSHR entries).

Every figure has a title, labelled axes (with units) and a legend. Output is
deterministic: the PDF carries no creation date, the PNG no software stamp.
"""
import os
import sys

# Tableau 10, the colours the seeds' figures (and our SVG charts before) used
PALETTE = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#b07aa1", "#76b7b2", "#edc948",
           "#9c755f", "#ff9da7", "#bab0ac")
HATCHES = ("", "//", "..", "xx", "\\\\", "++", "oo", "--", "**", "||")

_plt = None
_why = ""


def _debian_dist_packages():
    """Debian's python3-matplotlib lives in /usr/lib/python3/dist-packages; another
    python3 of the same version (pyenv, venv) can import it from there."""
    p = "/usr/lib/python3/dist-packages"
    base = os.path.realpath("/usr/bin/python3") if os.path.exists("/usr/bin/python3") else ""
    same = os.path.basename(base) == f"python{sys.version_info[0]}.{sys.version_info[1]}"
    return p if os.path.isdir(p) and same and p not in sys.path else None


def pyplot():
    """matplotlib.pyplot with the Agg backend, or None (why: unavailable())."""
    global _plt, _why
    if _plt is not None or _why:
        return _plt
    try:
        import matplotlib
    except ImportError:
        extra = _debian_dist_packages()
        if extra:
            sys.path.append(extra)
        try:
            import matplotlib
        except ImportError as e:
            _why = f"matplotlib is not installed ({e}); tools/deps.sh installs python3-matplotlib"
            return None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.rcParams.update({"font.size": 9, "axes.titlesize": 11, "axes.titleweight": "bold",
                         "axes.grid": True, "axes.grid.axis": "y", "grid.color": "#dddddd",
                         "axes.axisbelow": True, "legend.fontsize": 8, "legend.frameon": False,
                         "svg.hashsalt": "warpsim", "pdf.compression": 6})
    _plt = plt
    return plt


def unavailable():
    pyplot()
    return _why


def _num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _short(v):
    a = abs(v)
    for lim, unit, suf in ((1e9, 1e9, "G"), (1e6, 1e6, "M"), (1e4, 1e3, "k")):
        if a >= lim:
            return f"{v / unit:.3g}{suf}"
    if a == 0:
        return "0"
    if a >= 100:
        return f"{v:.0f}"
    return f"{v:#.3g}".rstrip(".")


def save(fig, stem):
    """Writes stem.png and stem.pdf; returns their paths."""
    plt = pyplot()
    os.makedirs(os.path.dirname(os.path.abspath(stem)), exist_ok=True)
    paths = [stem + ".png", stem + ".pdf"]
    fig.savefig(paths[0], dpi=150, bbox_inches="tight", metadata={"Software": None})
    fig.savefig(paths[1], bbox_inches="tight", metadata={"CreationDate": None, "Creator": None,
                                                        "Producer": None})
    plt.close(fig)
    return paths


def bar_chart(table, ylabel=None):
    """The Figure of a grouped bar chart of a common.Table (rows x cols, plus means)."""
    plt = pyplot()
    cols = table.cols
    groups = [(r, {c: table.cells.get((r, c)) for c in cols}) for r in table.rows]
    n_data = len(groups)
    groups += [(n, dict(v)) for n, v in table.mean_rows]
    nb = max(1, len(cols))
    width = 0.8 / nb
    fig, ax = plt.subplots(figsize=(min(16.0, max(4.5, 0.18 * nb * len(groups) + 1.5 + 0.1 * len(groups))), 3.6))
    nums = [v for _, g in groups for v in g.values() if _num(v)]
    top = max(nums + [table.baseline or 0, 0]) or 1.0
    for ci, c in enumerate(cols):
        xs, hs = [], []
        for gi, (_, vals) in enumerate(groups):
            x = gi + (ci - (nb - 1) / 2) * width
            v = vals.get(c)
            if _num(v):
                xs.append(x)
                hs.append(v)
            else:
                miss, col = ("FAIL", "#c00000") if repr(v) == "FAIL" else ("n/a", "#888888")
                ax.text(x, 0, miss, rotation=90, ha="center", va="bottom", fontsize=7, color=col)
        ax.bar(xs, hs, width * 0.92, label=c, color=PALETTE[ci % len(PALETTE)],
               hatch=HATCHES[ci // len(PALETTE) % len(HATCHES)], edgecolor="white", linewidth=0.3)
        if len(groups) * nb <= 60:
            for x, h in zip(xs, hs):
                ax.text(x, h + 0.01 * top if h >= 0 else h - 0.01 * top, _short(h), rotation=90, ha="center",
                        va="bottom" if h >= 0 else "top", fontsize=6)
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels([g for g, _ in groups], rotation=30 if len(groups) > 8 else 0,
                       ha="right" if len(groups) > 8 else "center")
    for lab in ax.get_xticklabels()[n_data:]:
        lab.set_fontweight("bold")
    if n_data < len(groups):
        ax.axvline(n_data - 0.5, color="#999999", linestyle=":", linewidth=1)
    if table.baseline is not None:
        ax.axhline(table.baseline, color="#333333", linestyle="--", linewidth=1)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xlim(-0.6, len(groups) - 0.4)
    ax.set_ylim(top=top * 1.18 if top > 0 else None)
    ax.set_title(table.title, pad=22)
    ax.set_xlabel(table.row_label)
    ax.set_ylabel(ylabel or table.ylabel)
    ax.legend(ncol=min(nb, 8), loc="lower center", bbox_to_anchor=(0.5, 1.0), handlelength=1.2,
              columnspacing=1.2)
    foot = table.note
    if table.excluded and table.mean_rows:
        foot = (foot + "; " if foot else "") + "means exclude " + ", ".join(table.excluded)
    if foot:
        ax.annotate(foot, (0, 0), xycoords="axes fraction", xytext=(0, -70 if len(groups) > 8 else -36),
                    textcoords="offset points", fontsize=7, color="#555555", ha="left", va="top")
    return fig


def table_chart(table):
    """The figure of a common.Table: its `chart` says bars (grouped) or stacked."""
    if getattr(table, "chart", "bars") != "stacked":
        return bar_chart(table)
    rows = list(table.rows) + [n for n, _ in table.mean_rows]
    vals = {(r, c): table.value(r, c) for r in rows for c in table.cols}
    vals = {k: (v if _num(v) else None) for k, v in vals.items()}
    missing = [r for r in rows if not any(_num(vals[(r, c)]) for c in table.cols)]
    note = table.note + ("; " if table.note and missing else "") + \
        ("no data (FAIL or n/a): " + ", ".join(missing) if missing else "")
    return stacked_chart(table.title, rows, table.cols, vals, table.ylabel, table.row_label, note=note)


def stacked_chart(title, rows, segments, values, ylabel, xlabel="", shares=False, note=""):
    """Stacked bars: one bar per row, one segment per name in `segments`;
    values[(row, segment)] a number (None: 0). shares: each bar scaled to 100 %."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(max(4.0, 0.55 * len(rows) + 2.5), 3.4))
    bottoms = [0.0] * len(rows)
    tot = [sum(values.get((r, s)) or 0 for s in segments) for r in rows]
    for si, s in enumerate(segments):
        hs = []
        for ri, r in enumerate(rows):
            v = values.get((r, s)) or 0
            hs.append(100.0 * v / tot[ri] if shares and tot[ri] else (0.0 if shares else v))
        ax.bar(range(len(rows)), hs, 0.65, bottom=bottoms, label=s, color=PALETTE[si % len(PALETTE)],
               edgecolor="white", linewidth=0.3)
        bottoms = [b + h for b, h in zip(bottoms, hs)]
    if len(rows) < 3:
        ax.set_xlim(-1.2, len(rows) + 0.2)
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels(rows, rotation=30 if len(rows) > 6 else 0, ha="right" if len(rows) > 6 else "center")
    ax.set_title(title)
    ax.set_ylabel(ylabel)
    if xlabel:
        ax.set_xlabel(xlabel)
    if shares:
        ax.set_ylim(0, 100)
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5))
    for ri, r in enumerate(rows):
        if not tot[ri]:
            ax.text(ri, 1, "n/a", rotation=90, ha="center", va="bottom", fontsize=7, color="#888888")
    if note:
        ax.annotate(note, (0, 0), xycoords="axes fraction", xytext=(0, -82 if len(rows) > 6 else -40),
                    textcoords="offset points", fontsize=7, color="#555555", ha="left", va="top")
    return fig


def line_chart(title, series, xlabel, ylabel, baseline=None, logx=False):
    """One line per series: series = [(label, [(x, y), ...])]; a y of None is skipped."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(5.0, 3.4))
    markers = "osD^v<>ph*"
    xs_all = set()
    for i, (label, pts) in enumerate(series):
        pts = [(x, y) for x, y in pts if _num(y)]
        xs_all.update(x for x, _ in pts)
        ax.plot([x for x, _ in pts], [y for _, y in pts], marker=markers[i % len(markers)], markersize=4,
                label=label, color=PALETTE[i % len(PALETTE)], linewidth=1.3)
    if logx:
        ax.set_xscale("log", base=2)
    if xs_all and all(float(x).is_integer() for x in xs_all) and len(xs_all) <= 12:
        ax.set_xticks(sorted(xs_all))
        ax.set_xticklabels([str(int(x)) for x in sorted(xs_all)])
        ax.minorticks_off()
    if baseline is not None:
        ax.axhline(baseline, color="#333333", linestyle="--", linewidth=1)
    ax.grid(True, axis="both")
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5))
    return fig
