#!/usr/bin/env python3
"""Bit-identity guard for refactors: runs every workload at `small` size in timing mode under
several configurations and writes one JSON per run with host-time fields stripped; with
--compare DIR it compares against an earlier output directory and lists every difference.

    tools/golden.py WARPSIM OUTDIR [--compare REFDIR] [--jobs N] [--only WORKLOAD...]
                    [--configs NAME...] [--threads N] [--size SIZE] [--set K=V ...]

--threads N runs every simulation on N host threads (sim.host_threads, which the
stripping drops: it is a host field); the results must be those of --threads 1.
--size default (or large) runs the workloads at that size instead: a change can show only
at scale (session 33: tighter DRAM bounds passed at `small` and changed an L1 refusal count
of atax at `default`), e.g. `--size default --configs gto hd7970 --only atax bicg mvt gups`.
--set K=V (repeatable) adds a parameter to every run; the compare ignores the `config`
rows of the keys set and `config_source`, e.g. `--set core.skip_idle=false --compare OUT_OF_A_RUN_WITHOUT_IT`
(a host option: every statistic must be the same).
"""
import argparse, concurrent.futures as cf, json, os, subprocess, sys

CONFIGS = {
    "gto":        ["--sched", "gto"],
    "lrr":        ["--sched", "lrr"],
    "motrrrec":   ["--sched", "motrr-recency"],
    "static":     ["--sched", "static-select"],
    "twolevel":   ["--sched", "two-level"],
    "reod":       ["--sched", "gto", "--set", "l1d.request_queues=8"],
    "hd7970":     ["--config", "hd7970"],
    "simple":     ["--set", "mem.model=simple"],
}


def strip(o):
    if isinstance(o, dict):
        return {k: strip(v) for k, v in o.items() if "host" not in k and "per_sec" not in k}
    if isinstance(o, list):
        return [strip(v) for v in o]
    return o


def workloads(warpsim):
    out = subprocess.run([warpsim, "list"], capture_output=True, text=True, check=True).stdout
    names, on = [], False
    for line in out.splitlines():
        if line.startswith("workloads"):
            on = True
            continue
        if on and not line.strip():
            break
        if on:
            names.append(line.split()[0])
    return names


EXTRA = []
SIZE = ["small"]
SET_KEYS = []


def run_one(warpsim, outdir, wl, cname, args):
    path = os.path.join(outdir, f"{wl}.{cname}.json")
    raw = path + ".raw"
    r = subprocess.run([warpsim, "run", "--mode", "timing", "--no-report", "--json", raw]
                       + args + EXTRA + [wl, "--size", SIZE[0], "--quiet"], capture_output=True,
                       text=True)
    if r.returncode != 0:
        data = {"error": r.returncode, "stderr": r.stderr[-2000:]}
    else:
        data = strip(json.load(open(raw)))
        os.unlink(raw)
    with open(path, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
    return path


def suite_options(ap):
    """The options of every suite comparison (this guard, tests/threads.py, tests/ahead.py):
    --jobs, --only WORKLOAD..., --configs NAME..."""
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--configs", nargs="*")


def suite_selection(a, configs):
    """The workloads (--only, else every one a.warpsim lists) and the configurations
    (--configs, else all of `configs`) that suite_options chose."""
    return (a.only or workloads(a.warpsim),
            {k: v for k, v in configs.items() if not a.configs or k in a.configs})


def diff(a, b, where=""):
    if type(a) != type(b):
        return [f"{where}: {a!r} != {b!r}"]
    if isinstance(a, dict):
        out = []
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                if where.startswith(".config") and k in b:
                    continue  # a new configuration key is not a difference in behaviour
                out.append(f"{where}.{k}: only in {'new' if k in b else 'ref'}")
            elif f"{where}.{k}" in SET_KEYS or (SET_KEYS and f"{where}.{k}" == ".config_source"):
                continue  # a key --set changed on purpose
            else:
                out += diff(a[k], b[k], f"{where}.{k}")
        return out
    if isinstance(a, list):
        if len(a) != len(b):
            return [f"{where}: length {len(a)} != {len(b)}"]
        out = []
        for i, (x, y) in enumerate(zip(a, b)):
            out += diff(x, y, f"{where}[{i}]")
        return out
    return [] if a == b else [f"{where}: {a!r} != {b!r}"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("warpsim")
    ap.add_argument("outdir")
    ap.add_argument("--compare")
    suite_options(ap)
    ap.add_argument("--threads", type=int)
    ap.add_argument("--size", default="small")
    ap.add_argument("--set", action="append", default=[], metavar="K=V")
    a = ap.parse_args()
    SIZE[0] = a.size
    if a.threads:
        EXTRA[:] = ["--threads", str(a.threads)]
    for kv in a.set:
        EXTRA.extend(["--set", kv])
        SET_KEYS.append(".config." + kv.split("=", 1)[0])
    os.makedirs(a.outdir, exist_ok=True)
    wls, cfgs = suite_selection(a, CONFIGS)
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        paths = list(ex.map(lambda t: run_one(a.warpsim, a.outdir, *t),
                            [(w, c, v) for w in wls for c, v in cfgs.items()]))
    if not a.compare:
        print(f"golden: {len(paths)} runs written to {a.outdir}")
        return
    bad = 0
    for p in paths:
        ref = os.path.join(a.compare, os.path.basename(p))
        if not os.path.exists(ref):
            print(f"{os.path.basename(p)}: no reference")
            bad += 1
            continue
        d = diff(json.load(open(ref)), json.load(open(p)))
        if d:
            bad += 1
            print(f"{os.path.basename(p)}: {len(d)} differences, first: " + "; ".join(d[:3]))
    print(f"golden: {len(paths) - bad}/{len(paths)} runs identical")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
