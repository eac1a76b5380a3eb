"""Sweeps: a matrix of warpsim runs described by a TOML file (docs/SWEEPS.md).

A sweep file lists workloads, sizes, configuration presets, warp scheduling policies,
`--set` overrides common to every run, a [matrix] of `--set` keys whose values are
crossed, and optional named [[variant]]s. `expand()` turns it into runs; a backend
runs those whose results are not already there (the harness's reuse rule: the same
command, common.reuse_result); `gather()` reads every run's JSON report back into one
tidy CSV: one row per run and launch, one column per statistic.

Backends: `local` (a process pool on this host, the default) and `slurm` (one
`sbatch --array` job, results in the shared output directory, squeue/sacct polling,
tasks that died resubmitted with the reason kept): sweep_slurm.py.

Python 3.11+ standard library (tomllib); no simulator state is shared between runs.
"""
import concurrent.futures
import csv
import io
import itertools
import json
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common as C  # noqa: E402

try:
    import tomllib
except ImportError:  # Python < 3.11
    tomllib = None

KNOWN_KEYS = {"name", "mode", "workloads", "sizes", "presets", "policies", "set", "matrix", "variant",
              "timeout", "jobs", "out", "slurm"}
SLURM_KEYS = {"partition", "time", "mem", "batch", "max_retries", "poll", "sbatch_args", "python",
              "max_parallel"}
# columns of the tidy CSV that describe the run (then the matrix keys, then statistics)
RUN_COLUMNS = ["run", "workload", "size", "preset", "policy", "variant"]
STATUS_COLUMNS = ["status", "error", "launch", "kernel"]
# statistics that measure the host, not the simulated GPU: they differ between two runs
# of the same command (left out when comparing sweeps)
HOST_COLUMNS = ("host_seconds", "host_sm_phase_seconds", "thread_insts_per_sec", "warp_insts_per_sec",
                "cycles_per_sec")


class SweepError(C.ExperimentError):
    pass


def _safe(v):
    return re.sub(r"[^A-Za-z0-9._=+-]", "_", str(v))


def _tomlval(v):
    """A --set value from TOML: true/false as 1/0 (the config's booleans), else str()."""
    if isinstance(v, bool):
        return "1" if v else "0"
    return str(v)


class Run:
    """One simulation of the sweep: `warpsim run [config.args] WORKLOAD [workload_args]`,
    its files named <workload>__<config.name>.*; size, preset, policy, variant and the
    [matrix] point are what the sweep file said (columns of the gathered CSV)."""

    def __init__(self, workload, config, workload_args, size="", preset="", policy="", variant="",
                 matrix=None):
        self.workload, self.config, self.workload_args = workload, config, list(workload_args)
        self.size, self.preset, self.policy, self.variant = size, preset, policy, variant
        self.matrix = dict(matrix or {})

    @classmethod
    def point(cls, workload, size, preset, policy, variant, matrix, args):
        parts = [size, preset, policy or "default"] + ([variant] if variant else [])
        parts += [f"{k}={v}" for k, v in matrix.items()]
        return cls(workload, C.Config("__".join(_safe(p) for p in parts), args), ["--size", size, "--quiet"],
                   size, preset, policy, variant, matrix)

    @property
    def name(self):
        return C.run_name(self.workload, self.config.name)

    def to_json(self):
        return {"workload": self.workload, "config": self.config.name, "args": self.config.args,
                "workload_args": self.workload_args, "size": self.size, "preset": self.preset,
                "policy": self.policy, "variant": self.variant, "matrix": self.matrix}

    @classmethod
    def from_json(cls, d):
        return cls(d["workload"], C.Config(d["config"], d["args"]), d["workload_args"], d["size"], d["preset"],
                   d["policy"], d["variant"], d["matrix"])


class Sweep:
    def __init__(self, spec, source="<sweep>"):
        self.source = source
        bad = sorted(set(spec) - KNOWN_KEYS)
        if bad:
            raise SweepError(f"{source}: unknown key(s) {', '.join(bad)} (known: {', '.join(sorted(KNOWN_KEYS))})")

        def strlist(key, default=None, required=False):
            v = spec.get(key, default)
            if v is None:
                if required:
                    raise SweepError(f"{source}: '{key}' is required (a list)")
                return []
            if isinstance(v, (str, int, float)):
                v = [v]
            if not isinstance(v, list) or not all(isinstance(x, (str, int, float)) for x in v):
                raise SweepError(f"{source}: '{key}' must be a list of strings")
            return [str(x) for x in v]

        self.name = str(spec.get("name") or os.path.splitext(os.path.basename(source))[0] or "sweep")
        self.mode = str(spec.get("mode", "timing"))
        if self.mode not in ("timing", "functional"):
            raise SweepError(f"{source}: mode must be 'timing' or 'functional', not {self.mode!r}")
        self.workloads = strlist("workloads", required=True)
        if not self.workloads:
            raise SweepError(f"{source}: 'workloads' is empty")
        self.sizes = strlist("sizes", ["default"])
        self.presets = strlist("presets", ["gtx480"])
        self.policies = strlist("policies", [""])
        self.sets = strlist("set", [])
        for s in self.sets:
            if "=" not in s:
                raise SweepError(f"{source}: set {s!r}: expected section.key=value")
        m = spec.get("matrix", {})
        if not isinstance(m, dict):
            raise SweepError(f"{source}: [matrix] must be a table of key = [values]")
        self.matrix = []
        for k, vals in m.items():
            if not isinstance(vals, list):
                vals = [vals]
            if not vals or any(isinstance(x, (list, dict)) for x in vals):
                raise SweepError(f"{source}: matrix key {k!r} needs a non-empty list of values")
            self.matrix.append((k, [_tomlval(x) for x in vals]))
        self.variants = []
        for i, v in enumerate(spec.get("variant", [])):
            if not isinstance(v, dict) or "name" not in v:
                raise SweepError(f"{source}: [[variant]] {i + 1} needs a name")
            sets = v.get("set", [])
            sets = [sets] if isinstance(sets, str) else sets
            if not all(isinstance(s, str) and "=" in s for s in sets):
                raise SweepError(f"{source}: variant {v['name']!r}: set must be a list of key=value")
            extra = sorted(set(v) - {"name", "set"})
            if extra:
                raise SweepError(f"{source}: variant {v['name']!r}: unknown key(s) {', '.join(extra)}")
            self.variants.append((str(v["name"]), list(sets)))
        names = [n for n, _ in self.variants]
        if len(set(names)) != len(names):
            raise SweepError(f"{source}: variant names must differ")
        self.timeout = spec.get("timeout")
        self.jobs = spec.get("jobs")
        self.out = spec.get("out")
        self.slurm = dict(spec.get("slurm", {}))
        bad = sorted(set(self.slurm) - SLURM_KEYS)
        if bad:
            raise SweepError(f"{source}: unknown [slurm] key(s) {', '.join(bad)} (known: {', '.join(sorted(SLURM_KEYS))})")

    @property
    def matrix_keys(self):
        return [k for k, _ in self.matrix]

    def runs(self):
        """Every run, in a fixed order: workload, size, preset, policy, variant, matrix."""
        out = []
        variants = self.variants or [("", [])]
        points = list(itertools.product(*[vals for _, vals in self.matrix])) or [()]
        for w, size, preset, pol, (vname, vsets), point in itertools.product(
                self.workloads, self.sizes, self.presets, self.policies, variants, points):
            args = ["--mode", self.mode, "--config", preset]
            for s in self.sets + vsets:
                args += ["--set", s]
            mx = dict(zip(self.matrix_keys, point))
            for k, v in mx.items():
                args += ["--set", f"{k}={v}"]
            if pol:
                args += ["--sched", pol]
            out.append(Run.point(w, size, preset, pol, vname, mx, args))
        names = [r.name for r in out]
        if len(set(names)) != len(names):
            raise SweepError(f"{self.source}: two runs get the same name (repeated values?)")
        return out


def load(path):
    if tomllib is None:
        raise SweepError("sweep files need Python 3.11+ (tomllib)")
    try:
        with open(path, "rb") as f:
            spec = tomllib.load(f)
    except OSError as e:
        raise SweepError(f"{path}: {e}")
    except tomllib.TOMLDecodeError as e:
        raise SweepError(f"{path}: not valid TOML: {e}")
    return Sweep(spec, path)


# ---------------------------------------------------------------------------------
# status files: what a backend leaves for gather()

def status_path(outdir, run):
    return os.path.join(outdir, "status", run.name + ".json")


def write_status(outdir, run, res, extra=None):
    os.makedirs(os.path.join(outdir, "status"), exist_ok=True)
    d = {"run": run.name, "ok": bool(res.ok), "error": strip_log(res.error), "seconds": res.seconds,
         "reused": bool(res.reused)}
    d.update(extra or {})
    p = status_path(outdir, run)
    with open(p + ".tmp", "w") as f:
        json.dump(d, f, sort_keys=True)
    os.replace(p + ".tmp", p)


def read_status(outdir, run):
    try:
        with open(status_path(outdir, run)) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def strip_log(err):
    return re.sub(r" \(log: [^)]*\)$", "", err or "")


def pending(runs, outdir, digest, force=False):
    """The runs whose results cannot be reused."""
    if force:
        return list(runs)
    return [r for r in runs if reuse(digest, outdir, r) is None]


def reuse(digest, outdir, run):
    return C.reuse_result(digest, outdir, run.workload, run.config, [], run.workload_args)


def run_one(warpsim, digest, outdir, run, force, timeout):
    res = C._one_run(warpsim, digest, outdir, run.workload, run.config, [], run.workload_args, force, timeout)
    write_status(outdir, run, res)
    return res


# ---------------------------------------------------------------------------------
# progress

class Progress:
    """Runs done/failed/total and ETA: one rewritten line on a terminal, one line per
    finished run otherwise; nothing with quiet."""

    def __init__(self, total, quiet=False, stream=None, label="sweep"):
        self.total, self.quiet, self.label = total, quiet, label
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.done = self.failed = 0
        self.reused = 0          # runs done without running (not counted in the rate)
        self.t0 = time.monotonic()
        self.last = 0.0

    def eta(self):
        ran = self.done - self.reused
        if ran <= 0 or self.done >= self.total:
            return ""
        el = time.monotonic() - self.t0
        return " ETA " + fmt_secs(el / ran * (self.total - self.done))

    def line(self):
        return (f"[{self.label}] {self.done}/{self.total} done, {self.failed} failed, "
                f"{fmt_secs(time.monotonic() - self.t0)} elapsed{self.eta()}")

    def update(self, done, failed, note=""):
        self.done, self.failed = done, failed
        if self.quiet:
            return
        if self.tty:
            self.stream.write("\r\033[K" + self.line())
            self.stream.flush()
        elif note:
            self.stream.write(f"[{done}/{self.total}] {note}\n")
            self.stream.flush()

    def tick(self):
        """Refresh the terminal line (elapsed time / ETA) at most once a second."""
        if self.tty and not self.quiet and time.monotonic() - self.last >= 1:
            self.last = time.monotonic()
            self.stream.write("\r\033[K" + self.line())
            self.stream.flush()

    def finish(self):
        if self.tty and not self.quiet:
            self.stream.write("\r\033[K" + self.line() + "\n")
            self.stream.flush()


def fmt_secs(s):
    s = int(round(s))
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s // 3600}h{s % 3600 // 60:02d}m"


# ---------------------------------------------------------------------------------
# local backend

def run_local(warpsim, outdir, runs, jobs=None, force=False, timeout=None, quiet=False):
    """Runs `runs` (reusing what exists unless force) with a pool of `jobs` processes.
    Returns (ran, reused, failed) counts."""
    os.makedirs(outdir, exist_ok=True)
    digest = C.file_digest(warpsim)
    jobs = max(1, jobs or os.cpu_count() or 1)
    prog = Progress(len(runs), quiet)
    done = failed = reused = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        futs = {ex.submit(run_one, warpsim, digest, outdir, r, force, timeout): r for r in runs}
        waiting = set(futs)
        while waiting:
            fin, waiting = concurrent.futures.wait(waiting, timeout=1.0,
                                                   return_when=concurrent.futures.FIRST_COMPLETED)
            for fut in fin:
                r, res = futs[fut], fut.result()
                done += 1
                failed += not res.ok
                reused += res.reused
                prog.reused = reused
                what = "reused" if res.reused else ("ok" if res.ok else "FAIL")
                note = f"{what:6s} {r.name}" + ("" if res.ok else "  " + strip_log(res.error))
                prog.update(done, failed, note)
            prog.tick()
    prog.finish()
    return done - reused, reused, failed


# ---------------------------------------------------------------------------------
# gathering

def _scalar(v):
    if isinstance(v, bool):
        return str(int(v))
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, str):
        return v
    if isinstance(v, list) and len(v) <= 3 and all(isinstance(x, int) for x in v):
        return "x".join(str(x) for x in v)   # grid, block
    return None


_RESERVED = set(RUN_COLUMNS + STATUS_COLUMNS)


def gather(outdir, runs, digest=None, matrix_keys=()):
    """(header, rows): one row per run and launch; a failed run is one row with status
    FAIL, its reason, and no statistic (never a number). Columns: RUN_COLUMNS, the
    matrix keys (set.KEY), STATUS_COLUMNS, then every statistic of the launches in the
    order first seen."""
    stats, rows = [], []
    seen = set()
    for r in runs:
        base = {"run": r.name, "workload": r.workload, "size": r.size, "preset": r.preset,
                "policy": r.policy, "variant": r.variant}
        for k in matrix_keys:
            base["set." + k] = r.matrix.get(k, "")
        res = reuse(digest or "", outdir, r)
        if res is None:
            st = read_status(outdir, r)
            why = (st or {}).get("error") or "no result (never ran, or its task died)"
            rows.append(dict(base, status="FAIL", error=why))
            continue
        launches = res.doc.get("launches", [])
        if not launches:
            rows.append(dict(base, status="ok"))
        for i, l in enumerate(launches):
            row = dict(base, status="ok", launch=str(i), kernel=str(l.get("kernel", "")))
            for k, v in l.items():
                if k in ("kernel", "result"):
                    continue
                sv = _scalar(v)
                if sv is None:
                    continue
                if k in _RESERVED:
                    k = "launch_" + k     # the launch's own policy (e.g. static-select(lrr))
                row[k] = sv
                if k not in seen:
                    seen.add(k)
                    stats.append(k)
            rows.append(row)
    header = RUN_COLUMNS + ["set." + k for k in matrix_keys] + STATUS_COLUMNS + stats
    return header, [[row.get(h, "") for h in header] for row in rows]


def write_csv(path, header, rows):
    s = io.StringIO()
    w = csv.writer(s, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    with open(path, "w") as f:
        f.write(s.getvalue())
    return path


def read_csv(path, drop=HOST_COLUMNS):
    """(header, rows) of a gathered CSV without the host-time columns (for comparing)."""
    with open(path, newline="") as f:
        data = list(csv.reader(f))
    keep = [i for i, h in enumerate(data[0]) if h not in drop]
    return [data[0][i] for i in keep], [[r[i] for i in keep] for r in data[1:]]


def default_out(sweep, path=None):
    if sweep.out:
        base = os.path.dirname(os.path.abspath(path)) if path else os.getcwd()
        return os.path.join(base, sweep.out)
    return os.path.join(C.OUT_ROOT, "sweeps", _safe(sweep.name))


# ---------------------------------------------------------------------------------
# figures

def per_run_ipc(header, rows):
    """{run name: IPC over its launches (sum warp_insts / sum cycles)}, runs that passed
    in timing mode only."""
    ix = {h: i for i, h in enumerate(header)}
    if "cycles" not in ix or "warp_insts" not in ix:
        return {}
    acc = {}
    for r in rows:
        if r[ix["status"]] != "ok" or not r[ix["cycles"]]:
            continue
        a = acc.setdefault(r[ix["run"]], [0.0, 0.0])
        a[0] += float(r[ix["warp_insts"]])
        a[1] += float(r[ix["cycles"]])
    return {k: (w / c if c else None) for k, (w, c) in acc.items()}


def write_figures(outdir, sw, runs, header, rows):
    """IPC figures of a sweep (PNG and PDF under outdir/figures): over the first numeric
    [matrix] key as lines (one per combination of the other varying dimensions), else
    grouped bars per workload, absolute and normalised to the first configuration.
    Returns the paths written ([] without matplotlib or timing results)."""
    import plots
    if plots.pyplot() is None:
        print(f"sweep: no figures: {plots.unavailable()}", file=sys.stderr)
        return []
    ipc = per_run_ipc(header, rows)
    if not ipc:
        return []
    figdir = os.path.join(outdir, "figures")
    dims = [("workload", lambda r: r.workload), ("size", lambda r: r.size), ("preset", lambda r: r.preset),
            ("policy", lambda r: r.policy or "default"), ("variant", lambda r: r.variant)]
    dims += [(k, (lambda k: lambda r: r.matrix[k])(k)) for k in sw.matrix_keys]
    varying = [(n, f) for n, f in dims if len({f(r) for r in runs}) > 1]

    def numeric(k):
        try:
            [float(r.matrix[k]) for r in runs]
            return True
        except ValueError:
            return False

    xkey = next((k for k in sw.matrix_keys if numeric(k) and len({r.matrix[k] for r in runs}) > 1), None)
    paths = []
    if xkey:
        others = [(n, f) for n, f in varying if n != xkey]
        series = {}
        for r in runs:
            label = " ".join(f(r) for _, f in others) or sw.name
            series.setdefault(label, []).append((float(r.matrix[xkey]), ipc.get(r.name)))
        fig = plots.line_chart(f"IPC over {xkey}", [(k, sorted(v)) for k, v in series.items()], xkey,
                               "IPC (warp instructions / cycle)")
        paths += plots.save(fig, os.path.join(figdir, "ipc_over_" + _safe(xkey)))
        return paths
    cfg_dims = [(n, f) for n, f in varying if n != "workload"]
    cols, cells, wls = [], {}, []
    for r in runs:
        col = " ".join(f(r) for _, f in cfg_dims) or "run"
        if col not in cols:
            cols.append(col)
        if r.workload not in wls:
            wls.append(r.workload)
        v = ipc.get(r.name)
        cells[(r.workload, col)] = v if v is not None else C.FAIL
    t = C.Table("ipc", f"{sw.name}: IPC", wls, cols, cells, ylabel="IPC (warp instructions / cycle)")
    paths += plots.save(plots.bar_chart(t), os.path.join(figdir, "ipc"))
    if len(cols) > 1:
        nc = {}
        for w in wls:
            b = cells[(w, cols[0])]
            for c in cols:
                v = cells[(w, c)]
                nc[(w, c)] = C.FAIL if C.FAIL in (b, v) else C.div(v, b)
        t = C.Table("ipc_norm", f"{sw.name}: IPC normalised to {cols[0]}", wls, cols, nc, baseline=1.0,
                    ylabel=f"IPC / IPC({cols[0]})")
        paths += plots.save(plots.bar_chart(t), os.path.join(figdir, "ipc_norm"))
    return paths
